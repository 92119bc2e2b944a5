// What would otherwise be kept for ever, deleted once an hour by each server process: sessions past their idle or
// absolute limit that nobody used again (a session is deleted when its cookie comes back after its end; one whose
// browser never returns kept its address, its browser and, until it ends, its push subscription), spent rate-limit
// counters, old Idempotency-Key answers, and long-expired reset and email links. Each delete is idempotent, so
// processes that run it at once delete each row once. The audit record, notifications, releases and deliveries are
// the platform's history and are never touched here. Every minute, each process also folds the platform totals'
// deltas into their base rows (createTotalsCompactor), which leaves the totals as they were.
import { lt, or, sql } from "drizzle-orm";
import { MAX_WINDOW_SECONDS } from "../auth/rate-limit";
import type { Deps } from "../context";
import {
  emailVerifications,
  idempotencyKeys,
  passwordResets,
  rateLimits,
  sessions,
  webauthnChallenges,
} from "../db/schema";
import { type PeriodicTask, periodicTask } from "../lib/periodic";
import { compactPlatformRollups } from "./projects/rollup";

/**
 * How long a request's answer stays under its Idempotency-Key. The field app replays its queue when it is back
 * online; a visit that waits longer than this is refused by the milestone's own checks (its round or state moved)
 * rather than replayed.
 */
export const IDEMPOTENCY_KEPT_DAYS = 30;
/** How long a reset or email-verification link is kept after it expired: until then it says "expired", after "invalid". */
export const EXPIRED_LINKS_KEPT_DAYS = 30;
const EVERY_MS = 3_600_000;

export interface Removed {
  sessions: number;
  rateLimits: number;
  idempotencyKeys: number;
  links: number;
  challenges: number;
}

const daysAgo = (days: number) => sql`now() - make_interval(days => ${days})`;

/** Deletes what has ended (see the module's comment); says how many rows of each kind. */
export async function removeExpiredRecords(deps: Pick<Deps, "db" | "env">): Promise<Removed> {
  const { db, env } = deps;
  const count = (rows: unknown[]) => rows.length;
  const ended = await db
    .delete(sessions)
    .where(
      or(
        lt(sessions.lastSeenAt, sql`now() - make_interval(mins => ${env.SESSION_IDLE_MINUTES})`),
        lt(sessions.createdAt, sql`now() - make_interval(hours => ${env.SESSION_MAX_HOURS})`),
      ),
    )
    .returning({ id: sessions.id });
  const counters = await db
    .delete(rateLimits)
    .where(lt(rateLimits.windowStart, sql`now() - make_interval(secs => ${MAX_WINDOW_SECONDS})`))
    .returning({ key: rateLimits.key });
  const keys = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, daysAgo(IDEMPOTENCY_KEPT_DAYS)))
    .returning({ key: idempotencyKeys.key });
  let links = 0;
  for (const table of [passwordResets, emailVerifications]) {
    const expired = await db
      .delete(table)
      .where(lt(table.expiresAt, daysAgo(EXPIRED_LINKS_KEPT_DAYS)))
      .returning({ id: table.id });
    links += expired.length;
  }
  const challenges = await db
    .delete(webauthnChallenges)
    .where(lt(webauthnChallenges.expiresAt, sql`now()`))
    .returning({ challenge: webauthnChallenges.challenge });
  return {
    sessions: count(ended),
    rateLimits: count(counters),
    idempotencyKeys: count(keys),
    links,
    challenges: count(challenges),
  };
}

/** Runs removeExpiredRecords every hour in this process (like the audit checkpointer), logging what it removed. */
export function createHousekeeper(deps: Pick<Deps, "db" | "env" | "logger">): PeriodicTask<Removed | null> {
  return periodicTask({
    everyMs: EVERY_MS,
    run: async () => {
      const removed = await removeExpiredRecords(deps);
      if (Object.values(removed).some((n) => n > 0)) deps.logger.info({ removed }, "removed expired records");
      return removed;
    },
    idle: null,
    logger: deps.logger,
    failure: "housekeeping failed",
  });
}

/**
 * How often each process folds the platform totals' deltas into their base rows (compact_platform_rollups, migration
 * 0043). The admin's dashboard sums the deltas on every read, about 0.7 µs each: a minute's worth at 60 approvals a
 * second costs it under 3 ms, where an hour's would cost it over 100 (docs/decisions/039).
 */
export const TOTALS_COMPACT_EVERY_MS = 60_000;

/** Runs compactPlatformRollups every minute in this process; resolves to how many deltas a run folded. */
export function createTotalsCompactor(deps: Pick<Deps, "db" | "logger">): PeriodicTask<number> {
  return periodicTask({
    everyMs: TOTALS_COMPACT_EVERY_MS,
    run: () => compactPlatformRollups(deps.db),
    idle: 0,
    logger: deps.logger,
    failure: "folding the platform totals' deltas failed",
  });
}
