// One LISTEN per process on 'tranche_events' (the notifications insert trigger NOTIFYs it on commit), fanned
// out to the open streams of the user each notification belongs to; a session's end is told the same way
// (migration 0036). The NOTIFY carries the notification itself (migration 0020), serialized here once for every
// stream: no stream reads the database for it. Nothing here is state that matters: a stream that misses a wake-up
// catches up from the database by sequence number.
import type { Database, ListenerStatus } from "../db/client";
import type { Logger } from "../lib/logger";
import { type NotificationRow, subjectOf, toNotificationDto } from "../services/notifications/dto";

export const EVENTS_CHANNEL = "tranche_events";

/** A notification as a stream sends it: its seq (the event id) and its event data. */
export interface StreamEvent {
  seq: number;
  data: string;
}

export interface StreamSubscriber {
  /**
   * A notification with this seq was committed for the subscriber's user (Infinity: catch up on anything); `event`
   * is the notification itself when the NOTIFY carried it, else the subscriber reads it.
   */
  wake(seq: number, event?: StreamEvent): void;
  /** The process's LISTEN connection was lost or is back. */
  status?(status: ListenerStatus): void;
  /** A session of the subscriber's user ended (signed out, revoked, expired): the stream opened with it ends. */
  sessionEnded?(sessionId: string): void;
  /** The process is shutting down: end the stream; resolves once it has ended. */
  close(): Promise<void>;
}

export interface Realtime {
  subscribe(userId: string, subscriber: StreamSubscriber): () => void;
  /** Open streams, for tests and health. */
  streamCount(): number;
  /** Whether notifications currently reach this process ("reconnecting" while its LISTEN connection is down). */
  status(): ListenerStatus;
  /** Ends every open stream and stops listening. */
  close(): Promise<void>;
}

/** The data of a stream's `notification` event. */
export function toEventData(row: NotificationRow): string {
  return JSON.stringify({ ...toNotificationDto(row), subject: subjectOf(row) });
}

/** A notification as the trigger sent it (JSON, camelCase) to the stream's event data. */
function eventData(sent: Record<string, unknown>): string {
  const row = { ...sent, createdAt: new Date(String(sent.createdAt)) } as unknown as NotificationRow;
  return toEventData(row);
}

export async function createRealtime(database: Database, logger: Logger): Promise<Realtime> {
  const byUser = new Map<string, Set<StreamSubscriber>>();
  let count = 0;
  let status: ListenerStatus = "listening";
  const everyone = () => [...byUser.values()].flatMap((set) => [...set]);
  const unlisten = await database.listen(EVENTS_CHANNEL, {
    onPayload(payload) {
      let event: {
        userId?: unknown;
        seq?: unknown;
        notification?: Record<string, unknown>;
        endedSession?: unknown;
      };
      try {
        event = JSON.parse(payload);
      } catch {
        logger.warn({ payload }, "ignored a malformed realtime payload");
        return;
      }
      if (typeof event.userId !== "string") return;
      const subscribers = byUser.get(event.userId);
      if (!subscribers) return;
      // Migration 0036: a session of this user ended.
      if (typeof event.endedSession === "string") {
        for (const subscriber of subscribers) subscriber.sessionEnded?.(event.endedSession);
        return;
      }
      const seq = Number(event.seq);
      const carried = event.notification ? { seq, data: eventData(event.notification) } : undefined;
      for (const subscriber of subscribers) subscriber.wake(seq, carried);
    },
    onStatus(next) {
      status = next;
      for (const subscriber of everyone()) {
        subscriber.status?.(next);
        // Wake-ups sent while the connection was down are gone: every stream reads what it missed.
        if (next === "listening") subscriber.wake(Number.POSITIVE_INFINITY);
      }
    },
  });

  return {
    subscribe(userId, subscriber) {
      let set = byUser.get(userId);
      if (!set) {
        set = new Set();
        byUser.set(userId, set);
      }
      set.add(subscriber);
      count++;
      let active = true;
      return () => {
        if (!active) return;
        active = false;
        count--;
        const current = byUser.get(userId);
        current?.delete(subscriber);
        if (current?.size === 0) byUser.delete(userId);
      };
    },
    streamCount: () => count,
    status: () => status,
    async close() {
      const closing = everyone().map((subscriber) => subscriber.close());
      byUser.clear();
      await Promise.all(closing);
      // Let the HTTP layer finish the ended responses, so their connections count as idle.
      if (closing.length > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      await unlisten();
    },
  };
}
