// Using a passkey: the options a browser needs to ask for one, and the check of what it answers. User verification
// (the device's biometric or PIN) is required in both, so a passkey alone is two factors: the device and the person.

import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  type PublicKeyCredentialRequestOptionsJSON,
  verifyAuthenticationResponse,
} from "@simplewebauthn/server";
import type { PasskeyAssertion } from "@tranche/domain";
import { and, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { passkeys } from "../../db/schema";
import type { Env } from "../../env";
import type { AppError } from "../../errors";
import { CHALLENGE_TTL_MS, consumeChallenge, relyingParty, storeChallenge } from "./ceremony";

/** The WebAuthn user handle of an account: the 16 bytes of its id, never anything that names the person. */
export const userHandle = (userId: string) => new Uint8Array(Buffer.from(userId.replace(/-/g, ""), "hex"));

const userHandleText = (userId: string) => Buffer.from(userHandle(userId)).toString("base64url");

/** The person's passkeys that may still be used. */
export async function activePasskeys(db: DbOrTx, userId: string) {
  return db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.userId, userId), isNull(passkeys.revokedAt)));
}

/**
 * Options for navigator.credentials.get(). Signing in names no account (the browser offers its discoverable
 * passkeys for this site); as a second factor, only the signed-in person's passkeys are allowed.
 */
export async function assertionOptions(
  db: DbOrTx,
  env: Env,
  userId: string | null,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const allow = userId ? await activePasskeys(db, userId) : [];
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(env).id,
    userVerification: "required",
    timeout: CHALLENGE_TTL_MS,
    allowCredentials: allow.map((p) => ({
      id: p.credentialId,
      transports: p.transports as AuthenticatorTransport[],
    })),
  });
  await storeChallenge(db, options.challenge, userId ? "second_factor" : "sign_in", userId);
  return options;
}

type Refusal = (message: string) => AppError;

/**
 * Takes the assertion's challenge out of the store (single-use, this purpose, this person: see consumeChallenge).
 * Done before, and apart from, the check: a refused answer has still used its challenge.
 */
export const consumeAssertionChallenge = (db: DbOrTx, response: PasskeyAssertion, userId: string | null) =>
  consumeChallenge(db, response.response.clientDataJSON, userId ? "second_factor" : "sign_in", userId);

/**
 * Checks a passkey assertion against the challenge it answers: the passkey (registered, not revoked, the person's
 * own when one is signed in), the signature over the client data, user verification, and the signature counter.
 * Records the use. Returns the passkey's owner; any failure throws `refuse(reason)`.
 */
export async function verifyAssertion(
  db: DbOrTx,
  env: Env,
  response: PasskeyAssertion,
  challenge: string,
  expected: { userId: string | null },
  refuse: Refusal,
): Promise<{ userId: string; passkeyId: string }> {
  const [passkey] = await db.select().from(passkeys).where(eq(passkeys.credentialId, response.id));
  if (!passkey || (expected.userId && passkey.userId !== expected.userId)) {
    throw refuse("This passkey is not registered with Tranche.");
  }
  if (passkey.revokedAt) throw refuse("This passkey was revoked. Use another passkey or your authenticator app.");
  const handle = response.response.userHandle;
  if (handle && handle !== userHandleText(passkey.userId)) throw refuse("This passkey belongs to another account.");
  const rp = relyingParty(env);
  let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verified = await verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, "base64url")),
        counter: passkey.counter,
        transports: passkey.transports as AuthenticatorTransport[],
      },
    });
  } catch (error) {
    throw refuse(`The passkey could not be verified: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!verified.verified) throw refuse("The passkey could not be verified.");
  if (!verified.authenticationInfo.userVerified) {
    throw refuse("The passkey did not verify you (fingerprint, face or PIN). Please try again.");
  }
  await db
    .update(passkeys)
    .set({
      counter: verified.authenticationInfo.newCounter,
      backedUp: verified.authenticationInfo.credentialBackedUp,
      lastUsedAt: new Date(),
    })
    .where(eq(passkeys.id, passkey.id));
  return { userId: passkey.userId, passkeyId: passkey.id };
}
