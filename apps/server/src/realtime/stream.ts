// One Server-Sent Events stream of a signed-in user: every notification committed for them, in seq order,
// each with its seq as the event id so a reconnecting client (Last-Event-ID) receives what it missed.
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { AppEnv, SessionUser } from "../context";
import { subjectOf, toNotificationDto } from "../services/notifications/dto";
import { latestSeq, notificationsAfter } from "../services/notifications/list";

export interface StreamOptions {
  /** The seq the client last saw (Last-Event-ID), or null for a fresh stream that starts now. */
  lastEventId: number | null;
}

export function openEventStream(c: Context<AppEnv>, user: SessionUser, options: StreamOptions) {
  const { db, realtime, logger, env } = c.get("deps");
  return streamSSE(c, async (stream) => {
    let lastSeq = 0;
    let pending: Promise<void> = Promise.resolve();
    let finish: () => void = () => {};
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    let markEnded: () => void = () => {};
    const ended = new Promise<void>((resolve) => {
      markEnded = resolve;
    });

    // Sends what was committed after lastSeq; wake-ups run one after another so events stay in order.
    const flush = () => {
      pending = pending.then(async () => {
        if (stream.aborted || stream.closed) return;
        const rows = await notificationsAfter(db, user.id, lastSeq);
        for (const row of rows) {
          await stream.writeSSE({
            event: "notification",
            id: String(row.seq),
            data: JSON.stringify({ ...toNotificationDto(row), subject: subjectOf(row) }),
          });
          lastSeq = Math.max(lastSeq, Number(row.seq));
        }
      });
      pending = pending.catch((err) => {
        logger.warn({ err, userId: user.id }, "event stream write failed");
        finish();
      });
    };

    // Subscribe before reading the starting point, so nothing committed in between is lost.
    const unsubscribe = realtime.subscribe(user.id, {
      wake: (seq) => {
        if (seq > lastSeq) flush();
      },
      // The browser shows "Reconnecting…" while notifications cannot reach it, and refetches when they can.
      status: (status) => sendStatus(status),
      close: () => {
        finish();
        return ended;
      },
    });
    const sendStatus = (status: string) => {
      pending = pending.then(() => stream.writeSSE({ event: "status", data: JSON.stringify({ realtime: status }) }));
      pending = pending.catch(() => finish());
    };
    const heartbeat = setInterval(() => {
      stream.write(": heartbeat\n\n").catch(() => finish());
    }, env.SSE_HEARTBEAT_MS);
    stream.onAbort(() => finish());
    c.req.raw.signal?.addEventListener("abort", () => finish());

    try {
      lastSeq = options.lastEventId ?? (await latestSeq(db, user.id));
      // An opening comment flushes the headers at once, so the client knows the stream is up.
      await stream.write(": connected\n\n");
      if (realtime.status() !== "listening") sendStatus(realtime.status());
      flush();
      await finished;
    } finally {
      clearInterval(heartbeat);
      unsubscribe();
      // Ending the response here lets shutdown find the connection idle and close it at once.
      await stream.close();
      markEnded();
    }
  });
}
