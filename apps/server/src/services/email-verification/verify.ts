// A new account's address is confirmed by a single-use link emailed at sign-up (through the outbox, like
// invitations and password resets); until the link is used the account shows its address as unverified.
import { EMAIL_VERIFICATION_TTL_HOURS } from "@tranche/domain";
import { and, eq, isNull } from "drizzle-orm";
import { hashLinkToken, newLinkToken } from "../../auth/one-time-token";
import { enforce } from "../../auth/rate-limit";
import type { SessionUser } from "../../context";
import type { Db, DbOrTx } from "../../db/client";
import { emailVerifications, users } from "../../db/schema";
import type { Env } from "../../env";
import { AppError, businessRule } from "../../errors";
import { appendAudit } from "../audit/append";
import { queueEmail } from "../email/queue";
import { appUrl, renderEmail } from "../email/template";

const INVALID = "This confirmation link is not valid. Ask for a new one from your account page.";
const USED = "This confirmation link has already been used.";
const EXPIRED = "This confirmation link has expired. Ask for a new one from your account page.";

/** Writes a new link for the account and queues its email, in the caller's transaction; earlier links stop. */
export async function queueEmailVerification(
  tx: DbOrTx,
  env: Env,
  user: { id: string; email: string; name: string },
): Promise<void> {
  const now = new Date();
  await tx
    .update(emailVerifications)
    .set({ usedAt: now })
    .where(and(eq(emailVerifications.userId, user.id), isNull(emailVerifications.usedAt)));
  const { token, hash } = newLinkToken();
  await tx.insert(emailVerifications).values({
    userId: user.id,
    tokenHash: hash,
    expiresAt: new Date(now.getTime() + EMAIL_VERIFICATION_TTL_HOURS * 3_600_000),
  });
  await queueEmail(
    tx,
    user.email,
    "email_verification",
    renderEmail({
      subject: "Confirm your email for Tranche",
      heading: "Confirm your email address",
      paragraphs: [
        `Welcome to Tranche, ${user.name}. Confirm that ${user.email} is your address with the link below.`,
        `It works once and expires in ${EMAIL_VERIFICATION_TTL_HOURS} hours.`,
      ],
      action: { label: "Confirm my email", url: appUrl(env.PUBLIC_URL, `/verify-email?token=${token}`) },
      reason: `You receive this email because a Tranche account was created with ${user.email}. If it was not you, ignore it.`,
    }),
  );
}

/** Uses a link up: the account's address is confirmed (audited). */
export async function verifyEmail(db: Db, token: string): Promise<{ email: string; emailVerifiedAt: string }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        id: emailVerifications.id,
        userId: emailVerifications.userId,
        expiresAt: emailVerifications.expiresAt,
        usedAt: emailVerifications.usedAt,
        email: users.email,
      })
      .from(emailVerifications)
      .innerJoin(users, eq(users.id, emailVerifications.userId))
      .where(eq(emailVerifications.tokenHash, hashLinkToken(token)))
      .for("update", { of: emailVerifications });
    if (!row) throw new AppError("not_found", INVALID);
    if (row.usedAt) throw new AppError("gone", USED);
    if (row.expiresAt.getTime() <= Date.now()) throw new AppError("gone", EXPIRED);
    const now = new Date();
    await tx.update(emailVerifications).set({ usedAt: now }).where(eq(emailVerifications.id, row.id));
    await tx.update(users).set({ emailVerifiedAt: now, updatedAt: now }).where(eq(users.id, row.userId));
    await appendAudit(tx, {
      actorId: row.userId,
      action: "user.email_verified",
      entityType: "user",
      entityId: row.userId,
      after: { email: row.email },
    });
    return { email: row.email, emailVerifiedAt: now.toISOString() };
  });
}

/** Sends the signed-in person a new link (at most 3 an hour); an address already confirmed needs none. */
export async function resendEmailVerification(db: Db, env: Env, actor: SessionUser): Promise<void> {
  if (actor.emailVerifiedAt) throw businessRule("Your email address is already confirmed.");
  await enforce(db, [{ key: `email-verification:${actor.id}`, max: 3, windowSeconds: 3600 }]);
  await db.transaction((tx) => queueEmailVerification(tx, env, actor));
}
