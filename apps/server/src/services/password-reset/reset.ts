import type { ResetPasswordInput } from "@tranche/domain";
import { and, eq, isNull } from "drizzle-orm";
import { hashLinkToken } from "../../auth/one-time-token";
import { hashPassword, passwordWeaknesses } from "../../auth/password";
import type { Db, DbOrTx } from "../../db/client";
import { passwordResets, sessions, users } from "../../db/schema";
import type { Env } from "../../env";
import { AppError } from "../../errors";
import { appendAudit } from "../audit/append";
import { queueEmail } from "../email/queue";
import { appUrl, renderEmail } from "../email/template";

const INVALID = "This reset link is not valid. Ask for a new one.";
const USED = "This reset link has already been used. Ask for a new one.";
const EXPIRED = "This reset link has expired. Ask for a new one.";

const findReset = (tx: DbOrTx, tokenHash: string, lock: boolean) => {
  const query = tx
    .select({
      id: passwordResets.id,
      userId: passwordResets.userId,
      expiresAt: passwordResets.expiresAt,
      usedAt: passwordResets.usedAt,
      email: users.email,
      name: users.name,
    })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(eq(passwordResets.tokenHash, tokenHash));
  return lock ? query.for("update", { of: passwordResets }) : query;
};

const check = (row: Awaited<ReturnType<typeof findReset>>[number] | undefined) => {
  if (!row) throw new AppError("not_found", INVALID);
  if (row.usedAt) throw new AppError("gone", USED);
  if (row.expiresAt.getTime() <= Date.now()) throw new AppError("gone", EXPIRED);
  return row;
};

/** Whether a reset link still works (the page asks when it opens, before a password is typed): its expiry. */
export async function lookUpPasswordReset(db: DbOrTx, token: string): Promise<{ expiresAt: string }> {
  const reset = check((await findReset(db, hashLinkToken(token), false))[0]);
  return { expiresAt: reset.expiresAt.toISOString() };
}

/** Sets the new password, uses the link up, ends every session of the account and says so by email. */
export async function resetPassword(db: Db, env: Env, input: ResetPasswordInput): Promise<{ userId: string }> {
  const tokenHash = hashLinkToken(input.token);
  const find = (tx: DbOrTx, lock: boolean) => findReset(tx, tokenHash, lock);
  const first = check((await find(db, false))[0]);
  const reasons = passwordWeaknesses(input.password, [first.email, first.name]);
  if (reasons.length) throw new AppError("weak_password", "Password is too weak.", { reasons });
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const reset = check((await find(tx, true))[0]);
    await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, reset.userId));
    // Every link of the account stops working, not only this one.
    await tx
      .update(passwordResets)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResets.userId, reset.userId), isNull(passwordResets.usedAt)));
    await tx.delete(sessions).where(eq(sessions.userId, reset.userId));
    await appendAudit(tx, {
      actorId: reset.userId,
      action: "user.password_reset",
      entityType: "user",
      entityId: reset.userId,
    });
    await queueEmail(
      tx,
      reset.email,
      "password_changed",
      renderEmail({
        subject: "Your Tranche password was changed",
        heading: "Your password was changed",
        paragraphs: [
          `The password of your Tranche account (${reset.email}) was just reset with an emailed link, and every session was signed out.`,
          "If this was you, sign in with your new password. If it was not, reset your password again at once and tell your administrator.",
        ],
        action: { label: "Sign in", url: appUrl(env.PUBLIC_URL, "/login") },
        reason:
          "You receive this email because the password of your Tranche account changed. It is sent for every change, whatever your email settings.",
      }),
    );
    return { userId: reset.userId };
  });
}
