// Second factor: enrolment of an authenticator app (TOTP), recovery codes, and passing it in a session with a code
// or a passkey. The TOTP secret is sealed with the same secret box as webhook signing secrets (key kept outside the
// database).
import {
  RECOVERY_CODE_COUNT,
  type RecoveryCodesDto,
  SECOND_FACTOR_VALID_HOURS,
  type SecondFactorChangeInput,
  type SecondFactorInput,
  type SecondFactorStatusDto,
  type TotpSetupDto,
} from "@tranche/domain";
import { and, count, eq, isNotNull, isNull, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { clearFailures, countAttempt, refundAttempt } from "../../auth/failure-limits";
import { passwordTypedAgain } from "../../auth/service";
import { secondFactorFailureRule } from "../../auth/sign-in-failures";
import type { Deps, SessionUser } from "../../context";
import type { DbOrTx, Tx } from "../../db/client";
import { mfaRecoveryCodes, mfaTotp, passkeys, sessions } from "../../db/schema";
import { AppError, conflict } from "../../errors";
import { demoAccount } from "../../seed";
import { appendAudit } from "../audit/append";
import { notify } from "../notifications/notify";
import { activePasskeys, consumeAssertionChallenge, verifyAssertion } from "../passkeys/assertion";
import { hashRecoveryCode, matchTotp, newRecoveryCode, newTotpKey, totpSetup } from "./totp";

export interface SecurityContext {
  deps: Deps;
  actor: SessionUser;
  ip: string;
}

const WINDOW_MS = SECOND_FACTOR_VALID_HOURS * 3_600_000;

/** Until when the session's second factor counts, or null when it does not. */
export function secondFactorValidUntil(actor: SessionUser, now = Date.now()): Date | null {
  if (!actor.mfaVerifiedAt) return null;
  const until = actor.mfaVerifiedAt.getTime() + WINDOW_MS;
  return until > now ? new Date(until) : null;
}

async function totpRow(deps: Deps, userId: string) {
  const [row] = await deps.db.select().from(mfaTotp).where(eq(mfaTotp.userId, userId));
  return row;
}

/** Whether the person has a second factor to pass: an authenticator app that is on, or a passkey not revoked. */
export async function hasSecondFactor(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db.select({ enabledAt: mfaTotp.enabledAt }).from(mfaTotp).where(eq(mfaTotp.userId, userId));
  return !!row?.enabledAt || (await activePasskeys(db, userId)).length > 0;
}

/**
 * SQL: whether the user (a column or a value) holds anything of a second factor an admin could reset — an
 * authenticator app that is on, unused recovery codes, or a passkey not revoked. Recovery codes come only with an app;
 * they count too, so a reset leaves none that could still pass (hasSecondFactor asks what can be passed now).
 */
export function holdsSecondFactor(userId: SQLWrapper | string): SQL<boolean> {
  const app = and(eq(mfaTotp.userId, userId), isNotNull(mfaTotp.enabledAt));
  const codes = and(eq(mfaRecoveryCodes.userId, userId), isNull(mfaRecoveryCodes.usedAt));
  const keys = and(eq(passkeys.userId, userId), isNull(passkeys.revokedAt));
  return sql`(exists (select 1 from ${mfaTotp} where ${app})
    or exists (select 1 from ${mfaRecoveryCodes} where ${codes})
    or exists (select 1 from ${passkeys} where ${keys}))`.mapWith(Boolean);
}

/**
 * Once a second factor is set up, adding or changing one needs a session that has passed it within the window: a
 * password alone never adds an authenticator app beside someone's passkey, nor a passkey beside their app.
 */
export async function requirePassedIfEnrolled(ctx: SecurityContext): Promise<void> {
  if (secondFactorValidUntil(ctx.actor)) return;
  if (!(await hasSecondFactor(ctx.deps.db, ctx.actor.id))) return;
  throw new AppError(
    "mfa_required",
    "Confirm it's you with a passkey or the code from your authenticator app to continue.",
    { enrolled: true },
  );
}

/**
 * The account's password, typed again in this request (passwordAgainSchema). Wrong passwords count against the same
 * limits as failed sign-ins (429 past them), so a session cannot be used to guess the password it was opened with.
 */
export async function requirePasswordAgain(ctx: SecurityContext, password: string): Promise<void> {
  if (!(await passwordTypedAgain(ctx.deps.db, ctx.deps.env, ctx.actor, password, ctx.ip))) {
    throw new AppError("invalid_input", "That password is not correct.", { password: "That password is not correct." });
  }
}

/**
 * Changing how the person signs in or passes the second factor (adding a passkey, setting up or turning on the app):
 * once a second factor is set up the session must have passed it (requirePassedIfEnrolled), and whatever the session
 * has passed, the password is typed again. A session alone — a copied cookie, a script in the page, an unlocked
 * laptop — within the 12 hours would otherwise plant a passkey of its own, which signs in without the password and
 * outlives a password change.
 */
export async function requireProofToChange(ctx: SecurityContext, password: string): Promise<void> {
  await requirePassedIfEnrolled(ctx);
  await requirePasswordAgain(ctx, password);
}

export async function secondFactorStatus(ctx: SecurityContext): Promise<SecondFactorStatusDto> {
  const row = await totpRow(ctx.deps, ctx.actor.id);
  const [{ left }] = await ctx.deps.db
    .select({ left: count() })
    .from(mfaRecoveryCodes)
    .where(and(eq(mfaRecoveryCodes.userId, ctx.actor.id), isNull(mfaRecoveryCodes.usedAt)));
  const passkeyCount = (await activePasskeys(ctx.deps.db, ctx.actor.id)).length;
  const enrolled = !!row?.enabledAt || passkeyCount > 0;
  return {
    enrolled,
    totp: !!row?.enabledAt,
    passkeys: passkeyCount,
    // As requireSecondFactor asks: a demo account is not asked until it has set one up.
    required:
      ctx.deps.env.MFA_REQUIRED_ROLES.includes(ctx.actor.role) && (enrolled || !demoAccount(ctx.deps, ctx.actor.email)),
    validUntil: secondFactorValidUntil(ctx.actor)?.toISOString() ?? null,
    recoveryCodesLeft: row?.enabledAt ? left : 0,
  };
}

/**
 * Starts (or restarts) enrolment: a new secret, not yet on until a first code from it is accepted. Needs the password
 * typed again (requireProofToChange).
 */
export async function startTotpSetup(ctx: SecurityContext, input: { password: string }): Promise<TotpSetupDto> {
  await requireProofToChange(ctx, input.password);
  const existing = await totpRow(ctx.deps, ctx.actor.id);
  if (existing?.enabledAt) throw conflict("An authenticator app is already set up. Turn it off first to replace it.");
  const key = newTotpKey();
  const secretSealed = ctx.deps.webhookSecrets.seal(Buffer.from(key).toString("base64"));
  await ctx.deps.db
    .insert(mfaTotp)
    .values({ userId: ctx.actor.id, secretSealed })
    .onConflictDoUpdate({ target: mfaTotp.userId, set: { secretSealed, lastUsedStep: null, createdAt: new Date() } });
  return totpSetup(key, ctx.actor.email);
}

const openKey = (deps: Deps, sealed: string) => new Uint8Array(Buffer.from(deps.webhookSecrets.open(sealed), "base64"));

async function replaceRecoveryCodes(tx: Tx, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
  await tx.insert(mfaRecoveryCodes).values(codes.map((code) => ({ userId, codeHash: hashRecoveryCode(code) })));
  return codes;
}

export const markPassed = (tx: DbOrTx, sessionId: string) =>
  tx.update(sessions).set({ mfaVerifiedAt: new Date() }).where(eq(sessions.id, sessionId));

const wrongCode = () =>
  new AppError("invalid_input", "That code is not valid. Check the time on your device and try again.", {
    code: "That code is not valid.",
  });

/**
 * The first code from the app turns the second factor on; the recovery codes are shown this once. The password is
 * asked again here too: a set-up left unfinished has no expiry, so the proof given when it started may be old.
 */
export async function enableTotp(
  ctx: SecurityContext,
  input: { code: string; password: string },
): Promise<RecoveryCodesDto> {
  const { deps, actor, ip } = ctx;
  const { code } = input;
  const row = await totpRow(deps, actor.id);
  if (!row) throw conflict("Start the set-up first: scan the QR code, then enter a code.");
  if (row.enabledAt) throw conflict("An authenticator app is already set up.");
  await requireProofToChange(ctx, input.password);
  // Counted before the code is checked: at most the limit is ever evaluated, however many arrive at once.
  await countAttempt(deps.db, secondFactorFailureRule, actor.id, { ip });
  const step = matchTotp(openKey(deps, row.secretSealed), code, row.lastUsedStep);
  if (step === null) throw wrongCode();
  await clearFailures(deps.db, secondFactorFailureRule, actor.id, { ip });
  return deps.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(mfaTotp)
      .set({ enabledAt: new Date(), lastUsedStep: step })
      .where(and(eq(mfaTotp.userId, actor.id), isNull(mfaTotp.enabledAt)))
      .returning({ userId: mfaTotp.userId });
    if (!updated) throw conflict("An authenticator app is already set up.");
    const recoveryCodes = await replaceRecoveryCodes(tx, actor.id);
    await markPassed(tx, actor.sessionId);
    await appendAudit(tx, { actorId: actor.id, action: "user.mfa_enabled", entityType: "user", entityId: actor.id });
    await notify(tx, [actor.id], {
      title: "Second factor turned on",
      message: "An authenticator app now protects your account. Keep your recovery codes somewhere safe.",
      category: "account",
      link: "/account",
    });
    return { recoveryCodes };
  });
}

type SecondFactorMethod = "totp" | "recovery_code" | "passkey";

const passkeyRefused = (message: string) => new AppError("invalid_input", message, { passkey: message });

/**
 * Checks a code from the app, a recovery code (used up) or a passkey assertion against the person's second factor;
 * the caller has counted the attempt. Runs in the caller's transaction.
 */
async function checkSecondFactor(
  ctx: SecurityContext,
  tx: Tx,
  input: SecondFactorInput,
  challenge: string | null,
): Promise<SecondFactorMethod | null> {
  const { deps, actor } = ctx;
  if (input.passkey !== undefined && challenge !== null) {
    await verifyAssertion(tx, deps.env, input.passkey, challenge, { userId: actor.id }, passkeyRefused);
    return "passkey";
  }
  const [row] = await tx.select().from(mfaTotp).where(eq(mfaTotp.userId, actor.id)).for("update");
  if (!row?.enabledAt) {
    throw new AppError("mfa_required", "Set up an authenticator app first.", { enrolled: false });
  }
  if (input.code !== undefined) {
    const step = matchTotp(openKey(deps, row.secretSealed), input.code, row.lastUsedStep);
    if (step !== null) {
      await tx.update(mfaTotp).set({ lastUsedStep: step }).where(eq(mfaTotp.userId, actor.id));
      return "totp";
    }
  } else if (input.recoveryCode !== undefined) {
    const [used] = await tx
      .update(mfaRecoveryCodes)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(mfaRecoveryCodes.userId, actor.id),
          eq(mfaRecoveryCodes.codeHash, hashRecoveryCode(input.recoveryCode)),
          isNull(mfaRecoveryCodes.usedAt),
        ),
      )
      .returning({ id: mfaRecoveryCodes.id });
    if (used) return "recovery_code";
  }
  return null;
}

/**
 * Runs `then` in one transaction with a passed second factor. The attempt is counted against this (account, IP)
 * before the code is checked, outside the transaction (so the count survives the refusal); a wrong code answers
 * 400, and one beyond the limit is not checked at all (429).
 */
async function withSecondFactor<T>(
  ctx: SecurityContext,
  input: SecondFactorInput,
  then: (tx: Tx, method: SecondFactorMethod) => Promise<T>,
): Promise<T> {
  const { deps, actor, ip } = ctx;
  await countAttempt(deps.db, secondFactorFailureRule, actor.id, { ip });
  let outcome: { passed: true; value: T } | { passed: false };
  try {
    // A passkey's challenge is used up first, on its own: a refused answer cannot be tried again.
    const challenge = input.passkey ? await consumeAssertionChallenge(deps.db, input.passkey, actor.id) : null;
    outcome = await deps.db.transaction(async (tx) => {
      const method = await checkSecondFactor(ctx, tx, input, challenge);
      return method ? { passed: true as const, value: await then(tx, method) } : { passed: false as const };
    });
  } catch (error) {
    // Nothing enrolled, a passkey refused with its reason, or the action itself failed: no code was judged wrong.
    await refundAttempt(deps.db, secondFactorFailureRule, actor.id, { ip });
    throw error;
  }
  if (outcome.passed) {
    await clearFailures(deps.db, secondFactorFailureRule, actor.id, { ip });
    return outcome.value;
  }
  throw input.recoveryCode !== undefined
    ? new AppError("invalid_input", "That recovery code is not valid or has been used.", {
        recoveryCode: "That recovery code is not valid or has been used.",
      })
    : wrongCode();
}

/** Passes the second factor in this session: good for SECOND_FACTOR_VALID_HOURS. */
export async function verifySecondFactor(
  ctx: SecurityContext,
  input: SecondFactorInput,
): Promise<SecondFactorStatusDto> {
  await withSecondFactor(ctx, input, async (tx, method) => {
    await markPassed(tx, ctx.actor.sessionId);
    if (method === "recovery_code") {
      await appendAudit(tx, {
        actorId: ctx.actor.id,
        action: "user.mfa_recovery_code_used",
        entityType: "user",
        entityId: ctx.actor.id,
      });
    }
  });
  return secondFactorStatus({ ...ctx, actor: { ...ctx.actor, mfaVerifiedAt: new Date() } });
}

/**
 * New recovery codes (the old ones stop working), shown this once; needs a fresh code and the password. The password
 * is checked first: when it is wrong no code or recovery code is used up.
 */
export async function regenerateRecoveryCodes(
  ctx: SecurityContext,
  input: SecondFactorChangeInput,
): Promise<RecoveryCodesDto> {
  await requirePasswordAgain(ctx, input.password);
  return withSecondFactor(ctx, input, async (tx) => {
    const recoveryCodes = await replaceRecoveryCodes(tx, ctx.actor.id);
    await appendAudit(tx, {
      actorId: ctx.actor.id,
      action: "user.mfa_recovery_codes_replaced",
      entityType: "user",
      entityId: ctx.actor.id,
    });
    return { recoveryCodes };
  });
}

/**
 * Turns the second factor off (needs a fresh code and the password, checked first as for replacing recovery codes);
 * the user is told, in case it was not them.
 */
export async function disableTotp(ctx: SecurityContext, input: SecondFactorChangeInput) {
  await requirePasswordAgain(ctx, input.password);
  await withSecondFactor(ctx, input, async (tx) => {
    await tx.delete(mfaTotp).where(eq(mfaTotp.userId, ctx.actor.id));
    await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, ctx.actor.id));
    await tx.update(sessions).set({ mfaVerifiedAt: null }).where(eq(sessions.userId, ctx.actor.id));
    await appendAudit(tx, {
      actorId: ctx.actor.id,
      action: "user.mfa_disabled",
      entityType: "user",
      entityId: ctx.actor.id,
    });
    await notify(tx, [ctx.actor.id], {
      title: "Second factor turned off",
      message: "The authenticator app no longer protects your account. If this was not you, change your password.",
      category: "account",
      link: "/account",
    });
  });
}
