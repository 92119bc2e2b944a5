// Failed sign-ins and second-factor codes are counted per (account, source), with a much higher ceiling per
// account. Counting per account alone let a stranger lock a person out by failing on purpose; counting per IP alone
// let one account be guessed at from many addresses. The source is the IP, or a known device (ADR 014).
//
// Each attempt is counted (one INSERT … ON CONFLICT DO UPDATE … RETURNING) BEFORE its secret is checked, and only an
// attempt whose count is within the limit is checked at all: a check-then-count let 100 concurrent guesses all read
// "4 failures so far" and be evaluated. A success gives its count back.
import { inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client";
import { rateLimits } from "../db/schema";
import { AppError } from "../errors";
import { hit } from "./rate-limit";

export interface FailureRule {
  /** What is being guessed: a password, or a second-factor code. */
  kind: "signin" | "mfa";
  /** Attempts one source may make against one account within the window, beyond which none is checked. */
  perAccountIp: number;
  /** Failures against one account from all sources together within the window. */
  perAccount: number;
  /**
   * When the per-account ceiling is reached, does it also stop a source that has not failed itself? For passwords
   * yes (except a known device); for a second factor no: the person holding the code is never locked out by
   * another IP's failures.
   */
  ceilingStopsCleanIps: boolean;
  windowSeconds: number;
}

/** Where an attempt comes from: an IP, or a device that has signed in to the account before. */
export type AttemptSource = { ip: string } | { device: string };

const keys = (rule: FailureRule, account: string, source: AttemptSource) => ({
  pair: `${rule.kind}-fail:${account}:${"ip" in source ? `ip:${source.ip}` : `device:${source.device}`}`,
  account: `${rule.kind}-fail:${account}`,
});

function tooMany(retryAfter: number): AppError {
  return new AppError(
    "rate_limited",
    `Too many failed attempts. Try again in ${retryAfter} seconds.`,
    { retryAfter },
    { "Retry-After": String(retryAfter) },
  );
}

/**
 * Counts this attempt for (account, source) and then for the account, atomically, and answers 429 when it is over
 * either limit (then the secret must not be checked). An attempt refused for its own source is not counted against
 * the account, so one flooding source cannot push the account over its ceiling on its own. A known device is not
 * stopped by the account-wide ceiling: strangers' failures never lock the owner out of their own browser.
 */
export async function countAttempt(
  db: DbOrTx,
  rule: FailureRule,
  account: string,
  source: AttemptSource,
): Promise<void> {
  const k = keys(rule, account, source);
  const pair = await hit(db, { key: k.pair, max: rule.perAccountIp, windowSeconds: rule.windowSeconds });
  if (pair.count > rule.perAccountIp) throw tooMany(pair.retryAfter);
  const total = await hit(db, { key: k.account, max: rule.perAccount, windowSeconds: rule.windowSeconds });
  const knownDevice = "device" in source;
  // With the count taken first, "this source has failed before" is a count above this attempt's own 1.
  const stopsThisSource = !knownDevice && (rule.ceilingStopsCleanIps || pair.count > 1);
  if (total.count > rule.perAccount && stopsThisSource) throw tooMany(total.retryAfter);
}

/** The attempt was not a failure (the secret was right, or it was never checked): its count is given back. */
async function giveBack(db: DbOrTx, keysToLower: string[]): Promise<void> {
  await db
    .update(rateLimits)
    .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
    .where(inArray(rateLimits.key, keysToLower));
}

/** A success clears this source's failures against the account and gives the attempt back to the account. */
export async function clearFailures(
  db: DbOrTx,
  rule: FailureRule,
  account: string,
  source: AttemptSource,
): Promise<void> {
  const k = keys(rule, account, source);
  await db.delete(rateLimits).where(inArray(rateLimits.key, [k.pair]));
  await giveBack(db, [k.account]);
}

/** The attempt ended before its secret was checked (e.g. nothing enrolled): it counts for nothing. */
export async function refundAttempt(
  db: DbOrTx,
  rule: FailureRule,
  account: string,
  source: AttemptSource,
): Promise<void> {
  const k = keys(rule, account, source);
  await giveBack(db, [k.pair, k.account]);
}
