import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Deps } from "../../context";
import { queryRows } from "../../db/client";
import { outbox } from "../../db/schema";
import type { OutboxMessage } from "./outbox";

/** Thrown by a handler when retrying cannot help: the message becomes dead at once. */
export class GiveUp extends Error {}

/** What a handler may say of a message it handled, beside that it is done. */
export interface Handled {
  /**
   * Ids of outbox messages it just wrote (a fan-out's deliveries): this worker claims and runs them at once instead
   * of leaving them at the back of the queue.
   */
  next?: string[];
  /** Merged into the message's payload in the statement that marks it done: how it was handled (an email's `via`). */
  record?: Record<string, unknown>;
}

export interface TopicConfig {
  /** Resolves: done (with what it says of it). Throws: tried again after the next delay. */
  handle(message: OutboxMessage): Promise<void | Handled>;
  /** Delay after attempt 1, 2, …; the last one repeats. */
  retryDelaysMs: readonly number[];
  /** After this many attempts the message is dead (default: never). */
  maxAttempts?: number;
  /**
   * Due messages of a higher priority are claimed first (default 0): under a backlog, what integrations wait on
   * (a release instruction to the custodian) does not queue behind emails.
   */
  priority?: number;
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
  /**
   * How long a claimed message is reserved for this process; a crashed process's messages rerun after it. A
   * handler gets at most three quarters of it: past that it counts as failed, and is retried.
   */
  leaseMs?: number;
  /** The clock (tests); by default the database's, so every process measures leases on the same one. */
  now?: () => Date;
}

const OUTBOX_CHANNEL = "tranche_outbox";

/** A claimed message and the token of this claim's lease. */
interface Claimed {
  message: OutboxMessage;
  leaseToken: string;
}

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
  const { pollMs = 1000, batchSize = 10, leaseMs = 60_000 } = options;
  /** The current time as SQL: the database's own, unless a test clock is given. */
  const at = (): SQL => (options.now ? sql`${options.now().toISOString()}::timestamptz` : sql`now()`);
  const later = (ms: number): SQL => sql`(${at()} + ${`${ms} milliseconds`}::interval)`;
  const handlerLimitMs = Math.floor((leaseMs * 3) / 4);
  const names = Object.keys(topics);
  // Each topic with its priority, as rows a claim reads from.
  const ranked = sql.join(
    names.map((name) => sql`(${name}::text, ${topics[name].priority ?? 0}::int)`),
    sql`, `,
  );
  const { db, logger } = deps;
  let timer: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let running: Promise<number> | undefined;
  let again = false;
  let stopped = false;

  async function claim(limit: number, ids?: string[]): Promise<Claimed[]> {
    if (names.length === 0 || limit <= 0 || ids?.length === 0) return [];
    // Due, of a registered topic, and not held by a live claim.
    const due = sql`o.status = 'pending' and o.run_at <= ${at()} and (o.locked_until is null or o.locked_until <= ${at()})
      and o.topic in (${sql.join(
        names.map((name) => sql`${name}`),
        sql`, `,
      )})`;
    const rows = await queryRows<{
      id: string;
      topic: string;
      payload: unknown;
      attempts: number;
      created_at: Date;
      lease_token: string;
    }>(
      db,
      // Given ids (what a handler just wrote), those by their key. Otherwise the first due messages of each topic,
      // each topic's from its own part of the index (outbox_pending_topic_idx), then the highest priority first and
      // the earliest due: a claim reads a few rows per topic, never every message waiting
      // (docs/decisions/030-fewer-statements-per-approval.md).
      sql`update ${outbox} set locked_until = ${later(leaseMs)}, attempts = attempts + 1,
            lease_token = gen_random_uuid()
          where id in (${
            ids
              ? sql`select o.id from ${outbox} o
                    where o.id in (${sql.join(
                      ids.map((id) => sql`${id}::uuid`),
                      sql`, `,
                    )}) and ${due}
                    limit ${limit}
                    for update skip locked`
              : sql`select first.id
                    from (values ${ranked}) as t(topic, priority)
                    cross join lateral (
                      select o.id, o.run_at from ${outbox} o
                      where o.topic = t.topic and ${due}
                      order by o.run_at
                      limit ${limit}
                      for update skip locked) first
                    order by t.priority desc, first.run_at
                    limit ${limit}`
          })
          returning id, topic, payload, attempts, created_at, lease_token`,
    );
    return rows.map((row) => ({
      message: {
        id: row.id,
        topic: row.topic,
        payload: row.payload,
        attempts: row.attempts,
        createdAt: new Date(row.created_at),
      },
      leaseToken: row.lease_token,
    }));
  }

  /**
   * Settles a message only while this claim still holds it: a handler that outlived its lease finds another
   * claim's token and changes nothing (that holder settles it). Returns whether the row was this claim's.
   */
  async function settleRow(claimed: Claimed, set: Record<string, unknown>): Promise<boolean> {
    const rows = await db
      .update(outbox)
      .set({ ...set, lockedUntil: null, leaseToken: null })
      .where(
        and(eq(outbox.id, claimed.message.id), eq(outbox.status, "pending"), eq(outbox.leaseToken, claimed.leaseToken)),
      )
      .returning({ id: outbox.id });
    if (rows.length === 0) notSettled(claimed);
    return rows.length > 0;
  }

  /**
   * The messages that finished since the last turn of the event loop, marked done in one statement: under load
   * many finish together, and a statement each is a round trip each. As settleRow, only while each claim holds its
   * message.
   */
  let finished: { claimed: Claimed; record: Record<string, unknown>; settled: (error?: unknown) => void }[] = [];
  function settleDone(claimed: Claimed, record: Record<string, unknown> = {}): Promise<void> {
    return new Promise((resolve, reject) => {
      if (finished.length === 0) setImmediate(() => void flushDone());
      finished.push({ claimed, record, settled: (error) => (error === undefined ? resolve() : reject(error)) });
    });
  }
  async function flushDone(): Promise<void> {
    const batch = finished;
    finished = [];
    try {
      const rows = await queryRows<{ id: string }>(
        db,
        sql`update ${outbox} o set status = 'done', done_at = ${at()}, last_error = null, locked_until = null,
              lease_token = null, payload = o.payload || v.record
            from (values ${sql.join(
              batch.map(
                ({ claimed, record }) =>
                  sql`(${claimed.message.id}::uuid, ${claimed.leaseToken}::uuid, ${JSON.stringify(record)}::jsonb)`,
              ),
              sql`, `,
            )}) as v(id, lease_token, record)
            where o.status = 'pending' and o.id = v.id and o.lease_token = v.lease_token
            returning o.id`,
      );
      const done = new Set(rows.map((row) => row.id));
      for (const { claimed } of batch) {
        if (!done.has(claimed.message.id)) notSettled(claimed);
      }
      for (const { settled } of batch) settled();
    } catch (error) {
      for (const { settled } of batch) settled(error);
    }
  }

  function notSettled(claimed: Claimed): void {
    logger.warn(
      { outboxId: claimed.message.id, topic: claimed.message.topic, attempts: claimed.message.attempts },
      "outbox message not settled: its lease had passed to another claim",
    );
  }

  async function settle(claimed: Claimed, error: unknown, record?: Record<string, unknown>): Promise<void> {
    const { message } = claimed;
    const config = topics[message.topic];
    if (error === undefined) {
      await settleDone(claimed, record);
      return;
    }
    const reason = error instanceof Error ? error.message : String(error);
    const dead =
      error instanceof GiveUp || (config.maxAttempts !== undefined && message.attempts >= config.maxAttempts);
    if (dead) {
      if (!(await settleRow(claimed, { status: "dead", lastError: reason.slice(0, 1000) }))) return;
      logger.warn(
        { outboxId: message.id, topic: message.topic, attempts: message.attempts, reason },
        "outbox message dead",
      );
      await config.onDead?.(message, error);
      return;
    }
    const delays = config.retryDelaysMs;
    const delay = delays[Math.min(message.attempts - 1, delays.length - 1)] ?? 0;
    if (!(await settleRow(claimed, { runAt: later(delay), lastError: reason.slice(0, 1000) }))) return;
    logger.info(
      { outboxId: message.id, topic: message.topic, attempts: message.attempts, delay, reason },
      "outbox retry",
    );
  }

  /** Runs one claimed message, then what its handler wrote to run at once; resolves to how many ran. */
  async function runOnce(claimed: Claimed): Promise<number> {
    let failure: unknown;
    let handled: Handled | undefined;
    let timer: NodeJS.Timeout | undefined;
    // Bounded by the lease, so the claim settles while it still holds the message (handlers bound their own
    // network calls more tightly: SMTP and webhook timeouts are shorter than this).
    const overrun = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`handler did not finish within ${handlerLimitMs} ms of its ${leaseMs} ms lease`)),
        handlerLimitMs,
      );
    });
    try {
      handled = (await Promise.race([topics[claimed.message.topic].handle(claimed.message), overrun])) ?? undefined;
    } catch (error) {
      failure = error ?? new Error("handler failed");
    } finally {
      clearTimeout(timer);
    }
    await settle(claimed, failure, handled?.record);
    // What the handler just wrote runs now, in this slot (another process may have claimed some first).
    const next = handled?.next ?? [];
    if (failure !== undefined || next.length === 0 || stopped) return 1;
    const ran = await Promise.all((await claim(next.length, next)).map(runOnce));
    return ran.reduce((sum, n) => sum + n, 1);
  }

  /**
   * Runs due messages, up to `batchSize` at once: as soon as one finishes, more are claimed, so a slow receiver
   * holds one slot and never the messages behind it (a fan-out's deliveries start while others are still sent).
   */
  async function runDue(): Promise<number> {
    let total = 0;
    const active = new Set<Promise<void>>();
    try {
      for (;;) {
        const batch = stopped ? [] : await claim(batchSize - active.size);
        for (const claimed of batch) {
          const running: Promise<void> = runOnce(claimed)
            .then((ran) => {
              total += ran;
            })
            .catch((error) => {
              total++;
              logger.error({ err: error, outboxId: claimed.message.id }, "outbox message not settled");
            })
            .finally(() => active.delete(running));
          active.add(running);
        }
        if (active.size === 0) return total;
        // Claim again at once while there may be more; otherwise when a slot frees up.
        if (batch.length === 0 || active.size >= batchSize) await Promise.race(active);
      }
    } finally {
      await Promise.all(active);
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
