/**
 * Runs `task` when the browser is idle, or after `timeout` ms at the latest; where there is no requestIdleCallback
 * (Safari), after `otherwise` ms. Returns a function that cancels it.
 */
export function whenIdle(task: () => void, { timeout, otherwise }: { timeout: number; otherwise: number }): () => void {
  if (typeof requestIdleCallback === "function") {
    const handle = requestIdleCallback(task, { timeout });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(task, otherwise);
  return () => clearTimeout(handle);
}
