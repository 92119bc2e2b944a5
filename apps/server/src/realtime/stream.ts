// One Server-Sent Events stream of a signed-in user: every notification committed for them, in seq order,
// each with its seq as the event id so a reconnecting client (Last-Event-ID) receives what it missed.
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import { sessionEnd } from "../auth/sessions";
import type { AppEnv, SessionUser } from "../context";
import { latestSeq, notificationsAfter } from "../services/notifications/list";
import { type StreamEvent, toEventData } from "./hub";

export interface StreamOptions {
  /** The seq the client last saw (Last-Event-ID), or null for a fresh stream that starts now. */
  lastEventId: number | null;
}

// A session that could not be read is looked at again after this; a timer waits at most MAX_TIMER_MS.
const SESSION_RECHECK_MS = 60_000;
const MAX_TIMER_MS = 2 ** 31 - 1;

export function openEventStream(c: Context<AppEnv>, user: SessionUser, options: StreamOptions) {
  const { db, realtime, logger, env } = c.get("deps");
  return streamSSE(c, async (stream) => {
    let lastSeq = 0;
    // Everything sent waits in `pending`, first behind the stream's starting point, then one after another.
    let started: () => void = () => {};
    let pending = new Promise<void>((resolve) => {
      started = resolve;
    });
    let finish: () => void = () => {};
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    let markEnded: () => void = () => {};
    const ended = new Promise<void>((resolve) => {
      markEnded = resolve;
    });

    const send = async (event: StreamEvent) => {
      await stream.writeSSE({ event: "notification", id: String(event.seq), data: event.data });
      lastSeq = Math.max(lastSeq, event.seq);
    };
    const then = (step: () => Promise<void>) => {
      pending = pending.then(async () => {
        if (!stream.aborted && !stream.closed) await step();
      });
      pending = pending.catch((err) => {
        logger.warn({ err, userId: user.id }, "event stream write failed");
        finish();
      });
    };
    // Sends what was committed after lastSeq, read from the database.
    const flush = () =>
      then(async () => {
        for (const row of await notificationsAfter(db, user.id, lastSeq)) {
          await send({ seq: Number(row.seq), data: toEventData(row) });
        }
      });

    // Subscribe before reading the starting point, so nothing committed in between is lost.
    const unsubscribe = realtime.subscribe(user.id, {
      // The notification came with the wake-up: sent as it is, unless this stream has it already.
      wake: (_seq, event) => {
        if (!event) return flush();
        then(async () => {
          if (event.seq > lastSeq) await send(event);
        });
      },
      // The browser shows "Reconnecting…" while notifications cannot reach it, and refetches when they can.
      status: (status) => sendStatus(status),
      close: () => {
        finish();
        return ended;
      },
      // Signed out, revoked by another session, a password changed, found expired: the stream ends with it.
      sessionEnded: (sessionId) => {
        if (sessionId === user.sessionId) finish();
      },
    });
    const sendStatus = (status: string) => {
      pending = pending.then(() => stream.writeSSE({ event: "status", data: JSON.stringify({ realtime: status }) }));
      pending = pending.catch(() => finish());
    };
    const heartbeat = setInterval(() => {
      stream.write(": heartbeat\n\n").catch(() => finish());
    }, env.SSE_HEARTBEAT_MS);
    // A session also ends by its idle or absolute limit with nothing using it: the stream looks at it then, and ends
    // with it unless it was used meanwhile (then it looks again at the new end).
    let expiry: ReturnType<typeof setTimeout> | undefined;
    let over = false;
    const watchExpiry = async () => {
      const endsAt = await sessionEnd(db, user.sessionId, env).catch((err) => {
        logger.warn({ err, userId: user.id }, "event stream could not read its session");
        return Date.now() + SESSION_RECHECK_MS;
      });
      if (over) return;
      if (endsAt === null) return finish();
      expiry = setTimeout(watchExpiry, Math.min(endsAt - Date.now() + 1_000, MAX_TIMER_MS));
    };
    stream.onAbort(() => finish());
    c.req.raw.signal?.addEventListener("abort", () => finish());

    try {
      lastSeq = options.lastEventId ?? (await latestSeq(db, user.id));
      // An opening comment flushes the headers at once, so the client knows the stream is up.
      await stream.write(": connected\n\n");
      started();
      await watchExpiry();
      if (realtime.status() !== "listening") sendStatus(realtime.status());
      // A reconnecting client (Last-Event-ID) gets what it missed.
      if (options.lastEventId !== null) flush();
      await finished;
    } finally {
      over = true;
      clearInterval(heartbeat);
      clearTimeout(expiry);
      unsubscribe();
      // Ending the response here lets shutdown find the connection idle and close it at once.
      await stream.close();
      markEnded();
    }
  });
}
