import { useEffect, useState } from "react";
import { listQueue, onQueueChange, type QueueItem } from "../store/queue";
import { syncQueue } from "../store/sync";
import { useOnline } from "./use-online";

/** How often a queue with waiting items tries again while the browser says it is online. */
const RETRY_MS = 15_000;

/** This person's queue as it stands (re-read on every change, in any tab); null until first read. */
export function useQueue(userId: string): QueueItem[] | null {
  const [items, setItems] = useState<QueueItem[] | null>(null);
  useEffect(() => {
    let live = true;
    const read = () =>
      void listQueue(userId)
        .then((next) => live && setItems(next))
        .catch(() => live && setItems([]));
    read();
    const stop = onQueueChange(read);
    return () => {
      live = false;
      stop();
    };
  }, [userId]);
  return items;
}

/**
 * Sends the queue whenever there is something to send and a connection: on coming online, when something is
 * added, and every few seconds while items wait.
 */
export function useQueueSender(userId: string, items: QueueItem[] | null): void {
  const online = useOnline();
  // Waiting items in order, as one value: a new one (or one sent again) starts a send at once.
  const waiting = (items ?? [])
    .filter((item) => item.status === "waiting" || item.status === "sending")
    .map((item) => `${item.seq}:${item.idempotencyKey}`)
    .join(",");
  useEffect(() => {
    if (!online || !waiting) return;
    void syncQueue(userId);
    const timer = setInterval(() => void syncQueue(userId), RETRY_MS);
    return () => clearInterval(timer);
  }, [online, waiting, userId]);
}
