import type { Context } from "hono";
import type { AppEnv } from "../context";
import { AppError } from "../errors";
import { demoAccount } from "../seed";
import { hasSecondFactor, secondFactorValidUntil } from "../services/mfa/second-factor";

/**
 * Whether the caller may act as one who passed the second factor ("passed": passed, not asked of this role, or a
 * demo account), else whether they have one to pass — an authenticator app or a passkey — ("enrolled") or must set
 * one up ("none").
 */
export async function secondFactorState(c: Context<AppEnv>): Promise<"passed" | "enrolled" | "none"> {
  const user = c.get("user");
  const deps = c.get("deps");
  if (!user || !deps.env.MFA_REQUIRED_ROLES.includes(user.role) || secondFactorValidUntil(user)) return "passed";
  const enrolled = await hasSecondFactor(deps.db, user.id);
  // The seeded demo accounts act without one in demo mode until they set one up: only those, not any address at
  // the demo's domain (anyone invited or signed up with one is asked like everyone else).
  if (!enrolled && demoAccount(deps, user.email)) return "passed";
  return enrolled ? "enrolled" : "none";
}

/**
 * Before an action on money or access: a person whose role is in MFA_REQUIRED_ROLES must have passed the second
 * factor in this session within the last 12 hours, else 403 `mfa_required` (details.enrolled says whether they
 * have one to enter, or must set one up). Call it after the route's own role check; API tokens are not asked.
 */
export async function requireSecondFactor(c: Context<AppEnv>): Promise<void> {
  const state = await secondFactorState(c);
  if (state === "passed") return;
  const enrolled = state === "enrolled";
  throw new AppError(
    "mfa_required",
    enrolled
      ? "Confirm it's you with a passkey or the code from your authenticator app to continue."
      : "Set up a second factor (a passkey or an authenticator app) to continue.",
    { enrolled },
  );
}
