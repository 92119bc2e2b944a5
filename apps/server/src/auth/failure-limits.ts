// Failed sign-ins and second-factor codes are counted per (account, IP), with a much higher ceiling per account.
// Counting per account alone let a stranger lock a person out by failing on purpose; counting per IP alone let
// one account be guessed at from many addresses.
import { and, gt, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client";
import { rateLimits } from "../db/schema";
import { AppError } from "../errors";
import { hit } from "./rate-limit";

export interface FailureRule {
  /** What is being guessed: a password, or a second-factor code. */
  kind: "signin" | "mfa";
  /** Failures one IP may make against one account within the window. */
  perAccountIp: number;
  /** Failures against one account from all IPs together within the window. */
  perAccount: number;
  /**
   * When the per-account ceiling is reached, does it also stop an IP that has not failed itself? For passwords
   * yes; for a second factor no: the person holding the code is never locked out by another IP's failures.
   */
  ceilingStopsCleanIps: boolean;
  windowSeconds: number;
}

const keys = (rule: FailureRule, account: string, ip: string) => ({
  pair: `${rule.kind}-fail:${account}:ip:${ip}`,
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

/** 429 when this IP may not try this account now (nothing is counted). */
export async function assertMayTry(db: DbOrTx, rule: FailureRule, account: string, ip: string): Promise<void> {
  const k = keys(rule, account, ip);
  const rows = await db
    .select({ key: rateLimits.key, count: rateLimits.count, windowStart: rateLimits.windowStart })
    .from(rateLimits)
    .where(
      and(
        inArray(rateLimits.key, [k.pair, k.account]),
        gt(rateLimits.windowStart, sql`now() - make_interval(secs => ${rule.windowSeconds})`),
      ),
    );
  const pair = rows.find((r) => r.key === k.pair);
  const total = rows.find((r) => r.key === k.account);
  const retryAfter = (row: { windowStart: Date }) =>
    Math.max(1, Math.ceil((row.windowStart.getTime() + rule.windowSeconds * 1000 - Date.now()) / 1000));
  if (pair && pair.count >= rule.perAccountIp) throw tooMany(retryAfter(pair));
  if (total && total.count >= rule.perAccount && (rule.ceilingStopsCleanIps || (pair?.count ?? 0) > 0)) {
    throw tooMany(retryAfter(total));
  }
}

/** Counts one failure for this (account, IP) and for the account. */
export async function recordFailure(db: DbOrTx, rule: FailureRule, account: string, ip: string): Promise<void> {
  const k = keys(rule, account, ip);
  await hit(db, { key: k.pair, max: rule.perAccountIp, windowSeconds: rule.windowSeconds });
  await hit(db, { key: k.account, max: rule.perAccount, windowSeconds: rule.windowSeconds });
}

/** A success clears this IP's failures against the account (the account's ceiling keeps counting). */
export async function clearFailures(db: DbOrTx, rule: FailureRule, account: string, ip: string): Promise<void> {
  await db.delete(rateLimits).where(inArray(rateLimits.key, [keys(rule, account, ip).pair]));
}
