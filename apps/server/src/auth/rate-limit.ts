import { sql } from "drizzle-orm";
import { type DbOrTx, queryRows } from "../db/client";
import { AppError } from "../errors";

export interface Limit {
  key: string;
  max: number;
  /** At most MAX_WINDOW_SECONDS: a counter older than that is deleted by the hourly housekeeping. */
  windowSeconds: number;
}

/** The longest window a limit may count over (a day); services/housekeeping.ts keeps counters that long. */
export const MAX_WINDOW_SECONDS = 86_400;

/**
 * Fixed-window counter in the database, so every server process shares it. One statement:
 * it starts a new window when the old one is over, else counts one more.
 */
export async function hit(db: DbOrTx, limit: Limit): Promise<{ count: number; retryAfter: number }> {
  if (limit.windowSeconds > MAX_WINDOW_SECONDS) throw new Error(`A rate limit's window is at most a day: ${limit.key}`);
  const [row] = await queryRows<{ count: number; window_start: Date | string }>(
    db,
    sql`
    insert into rate_limits (key, window_start, count) values (${limit.key}, now(), 1)
    on conflict (key) do update set
      count = case when rate_limits.window_start <= now() - make_interval(secs => ${limit.windowSeconds}) then 1 else rate_limits.count + 1 end,
      window_start = case when rate_limits.window_start <= now() - make_interval(secs => ${limit.windowSeconds}) then now() else rate_limits.window_start end
    returning count, window_start`,
  );
  const started = new Date(row.window_start).getTime();
  const retryAfter = Math.max(1, Math.ceil((started + limit.windowSeconds * 1000 - Date.now()) / 1000));
  return { count: Number(row.count), retryAfter };
}

/** Counts one attempt against each limit; throws 429 with Retry-After when any is exceeded. */
export async function enforce(db: DbOrTx, limits: Limit[]): Promise<void> {
  for (const limit of limits) {
    const { count, retryAfter } = await hit(db, limit);
    if (count > limit.max) {
      throw new AppError(
        "rate_limited",
        `Too many attempts. Try again in ${retryAfter} seconds.`,
        { retryAfter },
        { "Retry-After": String(retryAfter) },
      );
    }
  }
}
