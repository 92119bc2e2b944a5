import { type ComponentType, lazy, Suspense } from "react";

/**
 * A route element whose module loads on first visit, so each page is its own chunk. Navigations run in a
 * transition, so the page on screen stays until the next one is ready; the blank fallback (as tall as
 * a page, so the footer does not jump) shows only on a first load.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>) {
  const Page = lazy(load);
  return (
    <Suspense fallback={<div className="min-h-screen" aria-busy="true" />}>
      <Page />
    </Suspense>
  );
}

/** Layout route providing the shared QueryClient to the routes nested in it. */
export const queryScope = lazyPage(() => import("./query-scope"));
