// A person's passkeys: registering one (Account → Security), listing them, revoking one from the web, and signing
// in with one. Adding or revoking a passkey changes how the account is protected, so once any second factor is set
// up it needs a session that has passed it (else a stolen password could add the thief's own passkey), and always the
// password typed again (else a stolen session could).

import {
  type AuthenticatorTransport,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import type { PasskeyAssertion, PasskeyDto } from "@tranche/domain";
import { and, desc, eq, isNull, ne } from "drizzle-orm";
import { type SignedInUser, signedInUser } from "../../auth/sessions";
import type { Db } from "../../db/client";
import { passkeys, sessions, users } from "../../db/schema";
import type { Env } from "../../env";
import { AppError, conflict, notFound } from "../../errors";
import { appendAudit } from "../audit/append";
import {
  hasSecondFactor,
  markPassed,
  requirePassedIfEnrolled,
  requirePasswordAgain,
  requireProofToChange,
  type SecurityContext,
  secondFactorValidUntil,
} from "../mfa/second-factor";
import { notify } from "../notifications/notify";
import { activePasskeys, consumeAssertionChallenge, userHandle, verifyAssertion } from "./assertion";
import { CHALLENGE_TTL_MS, consumeChallenge, relyingParty, storeChallenge } from "./ceremony";

type PasskeyRow = typeof passkeys.$inferSelect;

const toPasskeyDto = (row: PasskeyRow): PasskeyDto => ({
  id: row.id,
  deviceName: row.deviceName,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  synced: row.deviceType === "multiDevice" && row.backedUp,
});

export async function listPasskeys(ctx: SecurityContext): Promise<PasskeyDto[]> {
  const rows = await ctx.deps.db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.userId, ctx.actor.id), isNull(passkeys.revokedAt)))
    .orderBy(desc(passkeys.createdAt));
  return rows.map(toPasskeyDto);
}

/**
 * Options for navigator.credentials.create(): a discoverable passkey that verifies the person. Needs the password typed
 * again (requireProofToChange); the challenge, good once for this person and for five minutes, carries that proof to
 * the registration.
 */
export async function registrationOptions(
  ctx: SecurityContext,
  input: { password: string },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { deps, actor } = ctx;
  await requireProofToChange(ctx, input.password);
  const rp = relyingParty(deps.env);
  const existing = await activePasskeys(deps.db, actor.id);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userID: userHandle(actor.id),
    userName: actor.email,
    userDisplayName: actor.name,
    attestationType: "none",
    timeout: CHALLENGE_TTL_MS,
    // The same authenticator is not registered twice.
    excludeCredentials: existing.map((p) => ({
      id: p.credentialId,
      transports: p.transports as AuthenticatorTransport[],
    })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  await storeChallenge(deps.db, options.challenge, "register", actor.id);
  return options;
}

const registrationRefused = (message: string) => new AppError("invalid_input", message, { response: message });

/**
 * Checks what the browser created against the challenge handed to this person, and keeps the passkey. Creating it
 * verified the person, so this session has passed the second factor too.
 */
export async function registerPasskey(
  ctx: SecurityContext,
  input: { name: string; response: RegistrationResponseJSON },
): Promise<PasskeyDto> {
  const { deps, actor } = ctx;
  await requirePassedIfEnrolled(ctx);
  const challenge = await consumeChallenge(deps.db, input.response.response.clientDataJSON, "register", actor.id);
  const rp = relyingParty(deps.env);
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch (error) {
    throw registrationRefused(
      `The passkey could not be verified: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (!verified.verified) throw registrationRefused("The passkey could not be verified.");
  const info = verified.registrationInfo;
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(passkeys)
      .values({
        userId: actor.id,
        credentialId: info.credential.id,
        publicKey: Buffer.from(info.credential.publicKey).toString("base64url"),
        counter: info.credential.counter,
        transports: info.credential.transports ?? [],
        deviceName: input.name,
        deviceType: info.credentialDeviceType,
        backedUp: info.credentialBackedUp,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw conflict("This passkey is already registered.");
    await markPassed(tx, actor.sessionId);
    await appendAudit(tx, {
      actorId: actor.id,
      action: "user.passkey_added",
      entityType: "user",
      entityId: actor.id,
      after: { passkeyId: row.id, deviceName: row.deviceName },
    });
    await notify(tx, [actor.id], {
      title: "Passkey added",
      message: `A passkey on "${row.deviceName}" can now sign you in and confirm actions. If this was not you, revoke it under Account → Security and change your password.`,
      category: "account",
      link: "/account#security",
    });
    return toPasskeyDto(row);
  });
}

/**
 * Revokes one of the person's passkeys: it is refused from now on. Needs a session that passed the second factor and
 * the password typed again (a stolen session must not strip the owner's factors). Other sessions that passed the
 * second factor must pass it again (one of them may have passed with this passkey, on a lost device).
 */
export async function revokePasskey(ctx: SecurityContext, id: string, input: { password: string }): Promise<void> {
  const { deps, actor } = ctx;
  if (!secondFactorValidUntil(actor)) {
    throw new AppError("mfa_required", "Confirm it's you to revoke a passkey.", {
      enrolled: await hasSecondFactor(deps.db, actor.id),
    });
  }
  await requirePasswordAgain(ctx, input.password);
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(passkeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, actor.id), isNull(passkeys.revokedAt)))
      .returning();
    if (!row) throw notFound("Passkey");
    await tx
      .update(sessions)
      .set({ mfaVerifiedAt: null })
      .where(and(eq(sessions.userId, actor.id), ne(sessions.id, actor.sessionId)));
    await appendAudit(tx, {
      actorId: actor.id,
      action: "user.passkey_revoked",
      entityType: "user",
      entityId: actor.id,
      before: { passkeyId: row.id, deviceName: row.deviceName },
    });
    await notify(tx, [actor.id], {
      title: "Passkey revoked",
      message: `The passkey on "${row.deviceName}" can no longer sign you in or confirm actions.`,
      category: "account",
      link: "/account#security",
    });
  });
}

const signInRefused = (message: string) => new AppError("unauthenticated", message);

/**
 * Signing in with a discoverable passkey: the assertion names the account. User verification makes it two factors,
 * so the new session has passed the second factor.
 */
export async function signInWithPasskey(db: Db, env: Env, response: PasskeyAssertion): Promise<{ user: SignedInUser }> {
  const challenge = await consumeAssertionChallenge(db, response, null);
  const { userId } = await verifyAssertion(db, env, response, challenge, { userId: null }, signInRefused);
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  if (!row) throw signInRefused("This passkey is not registered with Tranche.");
  return { user: signedInUser(row) };
}
