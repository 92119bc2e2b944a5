// What every WebAuthn ceremony shares: the relying party (from PUBLIC_URL) and its challenges, kept in the
// database (any process may answer the second half of a ceremony), single-use and short-lived.
import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { webauthnChallenges } from "../../db/schema";
import type { Env } from "../../env";
import { AppError } from "../../errors";

export const CHALLENGE_TTL_MS = 5 * 60_000;

export type CeremonyPurpose = "register" | "sign_in" | "second_factor";

/** The relying party is the configured public URL: its host is the RP ID, its origin the only one accepted. */
export function relyingParty(env: Env) {
  const url = new URL(env.PUBLIC_URL);
  return { id: url.hostname, origin: url.origin, name: "Tranche" };
}

/** Stores a challenge just handed out (and drops expired ones, so the table stays small). */
export async function storeChallenge(
  db: DbOrTx,
  challenge: string,
  purpose: CeremonyPurpose,
  userId: string | null,
): Promise<void> {
  await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, sql`now()`));
  await db.insert(webauthnChallenges).values({
    challenge,
    purpose,
    userId,
    expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
  });
}

const expired = () =>
  new AppError("invalid_input", "This passkey request has expired or was already used. Please try again.", {
    passkey: "This passkey request has expired or was already used.",
  });

/** The challenge the browser signed, read from its clientDataJSON (base64url JSON). */
function signedChallenge(clientDataJSON: string): string {
  try {
    const parsed = JSON.parse(Buffer.from(clientDataJSON, "base64url").toString("utf8")) as { challenge?: unknown };
    if (typeof parsed.challenge === "string" && parsed.challenge.length > 0) return parsed.challenge;
  } catch {}
  throw new AppError("invalid_input", "The passkey's answer could not be read.", {
    passkey: "The passkey's answer could not be read.",
  });
}

/**
 * Takes the challenge a response answers out of the store: it must have been handed out for this purpose (and this
 * person), less than five minutes ago, and not used before. Deleting it is what makes it single-use, on every
 * process at once. Returns it for the library's own comparison with the signed client data.
 */
export async function consumeChallenge(
  db: DbOrTx,
  clientDataJSON: string,
  purpose: CeremonyPurpose,
  userId: string | null,
): Promise<string> {
  const challenge = signedChallenge(clientDataJSON);
  const [row] = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.challenge, challenge),
        eq(webauthnChallenges.purpose, purpose),
        userId === null ? isNull(webauthnChallenges.userId) : eq(webauthnChallenges.userId, userId),
        gt(webauthnChallenges.expiresAt, sql`now()`),
      ),
    )
    .returning({ challenge: webauthnChallenges.challenge });
  if (!row) throw expired();
  return row.challenge;
}
