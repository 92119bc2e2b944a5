import type { Env } from "../env";
import type { FailureRule } from "./failure-limits";

const FIFTEEN_MINUTES = 900;

/**
 * Wrong passwords: per (account, IP) or (account, known device), and a ceiling per account that stops every IP
 * but not a device that has signed in to the account before.
 */
export const signInFailureRule = (env: Env): FailureRule => ({
  kind: "signin",
  perAccountIp: env.SIGNIN_FAILURES_PER_ACCOUNT_IP,
  perAccount: env.SIGNIN_FAILURES_PER_ACCOUNT,
  ceilingStopsCleanIps: true,
  windowSeconds: FIFTEEN_MINUTES,
});

/** Wrong second-factor codes: the ceiling never stops an IP that has not failed itself. */
export const secondFactorFailureRule: FailureRule = {
  kind: "mfa",
  perAccountIp: 5,
  perAccount: 50,
  ceilingStopsCleanIps: false,
  windowSeconds: FIFTEEN_MINUTES,
};
