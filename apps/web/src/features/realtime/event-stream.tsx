import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { RECONNECT_DELAYS_MS } from "@tranche/domain";
import { useEffect } from "react";

// Every query whose data an event can change: the notification list and badge, and the capital data the
// event concerns (open project, milestone, dashboard and verification pages refetch without a reload).
const REFRESHED_PREFIXES = [["notifications"], ["projects"], ["milestones"], ["dashboard"], ["verifications"]];

function refresh(queryClient: QueryClient) {
  for (const queryKey of REFRESHED_PREFIXES) void queryClient.invalidateQueries({ queryKey });
}

/**
 * One Server-Sent Events stream while signed in. The browser's own retry cannot follow SPEC.md §9's
 * 1, 2, 5 then 10 s delays, so a failed stream is closed and reopened here, resuming after the last event.
 */
export function EventStream() {
  const queryClient = useQueryClient();
  useEffect(() => {
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    let lastEventId = "";
    let stopped = false;

    const connect = () => {
      const url = lastEventId ? `/api/events?lastEventId=${encodeURIComponent(lastEventId)}` : "/api/events";
      source = new EventSource(url, { withCredentials: true });
      source.onopen = () => {
        // Anything may have changed while the stream was down.
        if (attempt > 0) refresh(queryClient);
        attempt = 0;
      };
      source.addEventListener("notification", (event) => {
        if (event.lastEventId) lastEventId = event.lastEventId;
        refresh(queryClient);
      });
      source.onerror = () => {
        source?.close();
        if (stopped) return;
        const delay = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)];
        attempt++;
        timer = setTimeout(connect, delay);
      };
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
    };
  }, [queryClient]);
  return null;
}
