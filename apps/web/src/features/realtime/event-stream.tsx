import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { RECONNECT_DELAYS_MS } from "@tranche/domain";
import { LoaderCircleIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { api } from "@/lib/api-client";

// Every query whose data an event can change: the notification list and badge, and the capital data the
// event concerns (open project, milestone, release, dashboard, report and verification pages refetch without a
// reload). "verification" is the verification feature's key root: the verifier's queue, its dialog and a milestone's
// verification tab; "analytics" holds the report charts.
const REFRESHED_PREFIXES = [
  ["notifications"],
  ["projects"],
  ["milestones"],
  ["dashboard"],
  ["verification"],
  ["releases"],
  ["analytics"],
];

function refresh(queryClient: QueryClient) {
  for (const queryKey of REFRESHED_PREFIXES) void queryClient.invalidateQueries({ queryKey });
}

/**
 * One Server-Sent Events stream while signed in. The browser's own retry cannot follow RECONNECT_DELAYS_MS's
 * 1, 2, 5 then 10 s delays, so a failed stream is closed and reopened here, resuming after the last event.
 * While the stream is down — or the server says its own database listener is — a discreet "Reconnecting…"
 * shows, and everything on screen is refetched once live updates flow again.
 */
export function EventStream() {
  const queryClient = useQueryClient();
  const [reconnecting, setReconnecting] = useState(false);
  useEffect(() => {
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    let lastEventId = "";
    let stopped = false;
    let down = false;
    const setDown = (next: boolean) => {
      // Back from an outage: anything may have changed while updates could not arrive.
      if (down && !next) refresh(queryClient);
      down = next;
      setReconnecting(next);
    };

    const connect = () => {
      const url = lastEventId ? `/api/events?lastEventId=${encodeURIComponent(lastEventId)}` : "/api/events";
      source = new EventSource(url, { withCredentials: true });
      source.onopen = () => {
        attempt = 0;
        setDown(false);
      };
      source.addEventListener("notification", (event) => {
        if (event.lastEventId) lastEventId = event.lastEventId;
        refresh(queryClient);
      });
      source.addEventListener("status", (event) => {
        const { realtime } = JSON.parse(event.data) as { realtime?: string };
        setDown(realtime === "reconnecting");
      });
      source.onerror = () => {
        source?.close();
        if (stopped) return;
        setDown(true);
        // The server ends a stream whose session ended (signed out from another device, a password changed): a
        // session check then answers 401 and the page goes to sign-in instead of reconnecting for ever. Offline,
        // it fails quietly and the stream keeps retrying.
        if (attempt === 0) void api("/me").catch(() => undefined);
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

  if (!reconnecting) return null;
  return (
    <div
      role="status"
      className="fixed bottom-20 left-4 z-40 flex items-center gap-2 rounded-full border border-amber-200 bg-amber-50 px-3 py-1.5 text-xs font-medium text-amber-900 shadow-sm lg:bottom-4"
    >
      <LoaderCircleIcon className="size-3.5 animate-spin" aria-hidden />
      Reconnecting…
    </div>
  );
}
