// Reading Server-Sent Events in tests: collects events and comments from a streamed response.

export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

/** Reads an event stream, collecting events; `next(n)` waits until n events have arrived. */
export function readEvents(res: Response) {
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let ended = false;
  const waiters: (() => void)[] = [];
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut = buffer.indexOf("\n\n");
        while (cut >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event: SseEvent = { data: "" };
          let isEvent = false;
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) comments.push(line.slice(1).trim());
            else if (line.startsWith("id: ")) event.id = line.slice(4);
            else if (line.startsWith("event: ")) event.event = line.slice(7);
            else if (line.startsWith("data: ")) {
              event.data += line.slice(6);
              isEvent = true;
            }
          }
          if (isEvent) events.push(event);
          for (const w of waiters.splice(0)) w();
          cut = buffer.indexOf("\n\n");
        }
      }
    } catch {
      // cancelled by the test
    } finally {
      ended = true;
      for (const w of waiters.splice(0)) w();
    }
  })();
  return {
    events,
    comments,
    get ended() {
      return ended;
    },
    async next(count: number, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (events.length < count) {
        if (ended) throw new Error(`stream ended after ${events.length} of ${count} events`);
        if (Date.now() > deadline) throw new Error(`timed out with ${events.length} of ${count} events`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      return events.slice(0, count).map((e) => ({ ...e, json: JSON.parse(e.data) }));
    },
    async untilEnded(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!ended && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      return ended;
    },
    async close() {
      await reader.cancel().catch(() => {});
      await pump;
    },
  };
}

export const waitFor = async (check: () => boolean, timeoutMs = 5_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
};
