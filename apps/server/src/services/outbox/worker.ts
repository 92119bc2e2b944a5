import { and, eq, sql } from "drizzle-orm";
import type { Deps } from "../../context";
import { queryRows } from "../../db/client";
import { outbox } from "../../db/schema";
import type { OutboxMessage } from "./outbox";

/** Thrown by a handler when retrying cannot help: the message becomes dead at once. */
export class GiveUp extends Error {}

export interface TopicConfig {
  /** Resolves: done. Throws: tried again after the next delay. */
  handle(message: OutboxMessage): Promise<void>;
  /** Delay after attempt 1, 2, …; the last one repeats. */
  retryDelaysMs: readonly number[];
  /** After this many attempts the message is dead (default: never). */
  maxAttempts?: number;
  onDead?(message: OutboxMessage, error: unknown): Promise<void>;
}

export interface OutboxWorker {
  start(): void;
  stop(): Promise<void>;
  /** Runs every due message now, again until none is due; resolves to how many ran (for tests and the CLI). */
  drain(): Promise<number>;
}

export interface OutboxWorkerOptions {
  pollMs?: number;
  batchSize?: number;
  /** How long a claimed message is reserved for this process; a crashed process's messages rerun after it. */
  leaseMs?: number;
  now?: () => Date;
}

const OUTBOX_CHANNEL = "tranche_outbox";

/**
 * Delivers outbox messages at least once. Several processes share the table: a message is claimed with
 * FOR UPDATE SKIP LOCKED and a lease, so no two processes run it at the same time, and a message whose process
 * died runs again once its lease expires. Handlers run outside any transaction (they may wait on the network).
 */
export function createOutboxWorker(
  deps: Deps,
  topics: Record<string, TopicConfig>,
  options: OutboxWorkerOptions = {},
): OutboxWorker {
  const { pollMs = 1000, batchSize = 10, leaseMs = 60_000, now = () => new Date() } = options;
  const names = Object.keys(topics);
  const { db, logger } = deps;
  let timer: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let running: Promise<number> | undefined;
  let again = false;
  let stopped = false;

  async function claim(): Promise<OutboxMessage[]> {
    if (names.length === 0) return [];
    const at = now();
    const until = new Date(at.getTime() + leaseMs);
    const rows = await queryRows<{ id: string; topic: string; payload: unknown; attempts: number; created_at: Date }>(
      db,
      sql`update ${outbox} set locked_until = ${until.toISOString()}, attempts = attempts + 1
          where id in (
            select id from ${outbox}
            where status = 'pending' and run_at <= ${at.toISOString()}
              and (locked_until is null or locked_until <= ${at.toISOString()})
              and topic in (${sql.join(
                names.map((name) => sql`${name}`),
                sql`, `,
              )})
            order by run_at
            limit ${batchSize}
            for update skip locked)
          returning id, topic, payload, attempts, created_at`,
    );
    return rows.map((row) => ({
      id: row.id,
      topic: row.topic,
      payload: row.payload,
      attempts: row.attempts,
      createdAt: new Date(row.created_at),
    }));
  }

  async function settle(message: OutboxMessage, error: unknown): Promise<void> {
    const config = topics[message.topic];
    if (error === undefined) {
      await db
        .update(outbox)
        .set({ status: "done", doneAt: now(), lockedUntil: null, lastError: null })
        .where(eq(outbox.id, message.id));
      return;
    }
    const reason = error instanceof Error ? error.message : String(error);
    const dead =
      error instanceof GiveUp || (config.maxAttempts !== undefined && message.attempts >= config.maxAttempts);
    if (dead) {
      await db
        .update(outbox)
        .set({ status: "dead", lockedUntil: null, lastError: reason.slice(0, 1000) })
        .where(and(eq(outbox.id, message.id), eq(outbox.status, "pending")));
      logger.warn(
        { outboxId: message.id, topic: message.topic, attempts: message.attempts, reason },
        "outbox message dead",
      );
      await config.onDead?.(message, error);
      return;
    }
    const delays = config.retryDelaysMs;
    const delay = delays[Math.min(message.attempts - 1, delays.length - 1)] ?? 0;
    await db
      .update(outbox)
      .set({ runAt: new Date(now().getTime() + delay), lockedUntil: null, lastError: reason.slice(0, 1000) })
      .where(eq(outbox.id, message.id));
    logger.info(
      { outboxId: message.id, topic: message.topic, attempts: message.attempts, delay, reason },
      "outbox retry",
    );
  }

  async function runOnce(message: OutboxMessage): Promise<void> {
    let failure: unknown;
    try {
      await topics[message.topic].handle(message);
    } catch (error) {
      failure = error ?? new Error("handler failed");
    }
    await settle(message, failure);
  }

  async function runDue(): Promise<number> {
    let total = 0;
    for (;;) {
      const batch = await claim();
      if (batch.length === 0) return total;
      await Promise.all(batch.map(runOnce));
      total += batch.length;
      if (stopped) return total;
    }
  }

  /** One run at a time per process; a wake-up during a run schedules one more. */
  function kick(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = runDue()
      .catch((error) => {
        logger.error({ err: error }, "outbox worker run failed");
        return 0;
      })
      .finally(() => {
        running = undefined;
        if (again && !stopped) {
          again = false;
          void kick();
        }
      });
    return running;
  }

  return {
    start() {
      stopped = false;
      timer = setInterval(() => void kick(), pollMs);
      timer.unref();
      void deps.database
        .listen(OUTBOX_CHANNEL, { onPayload: () => void kick() })
        .then((stop) => {
          unlisten = stop;
        })
        .catch((error) => logger.error({ err: error }, "outbox worker could not listen; polling only"));
      void kick();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await unlisten?.();
      await running;
    },
    async drain() {
      let total = 0;
      for (;;) {
        await running;
        const ran = await runDue();
        total += ran;
        if (ran === 0) return total;
      }
    },
  };
}
