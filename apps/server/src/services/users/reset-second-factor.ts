// An admin resets the second factor of a person who lost it (their phone and recovery codes, and no passkey): nobody
// else can, and without one a verifier or admin can never again approve, reject or change access (ADR 022).
import type { SecondFactorResetDto } from "@tranche/domain";
import { and, eq, isNull } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import type { Tx } from "../../db/client";
import { mfaRecoveryCodes, mfaTotp, passkeys, sessions, users } from "../../db/schema";
import type { Env } from "../../env";
import { conflict, forbidden, notFound } from "../../errors";
import { appendAudit } from "../audit/append";
import { queueEmail } from "../email/queue";
import { appUrl, renderEmail } from "../email/template";
import { notify } from "../notifications/notify";
import { toUserAdminDto } from "./dto";

type Removed = SecondFactorResetDto["removed"];

/**
 * Deletes the person's authenticator app (and an unfinished set-up) and recovery codes, and revokes their passkeys: a
 * revoked passkey is kept, as when its owner revokes it, so the lost phone's is refused by name (ADR 022). Counts only
 * what could still have passed.
 */
async function removeSecondFactor(tx: Tx, userId: string): Promise<Removed> {
  const app = await tx.delete(mfaTotp).where(eq(mfaTotp.userId, userId)).returning({ enabledAt: mfaTotp.enabledAt });
  const codes = await tx
    .delete(mfaRecoveryCodes)
    .where(eq(mfaRecoveryCodes.userId, userId))
    .returning({ usedAt: mfaRecoveryCodes.usedAt });
  const keys = await tx
    .update(passkeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(passkeys.userId, userId), isNull(passkeys.revokedAt)))
    .returning({ id: passkeys.id });
  return {
    totp: app.some((row) => row.enabledAt !== null),
    recoveryCodes: codes.filter((row) => row.usedAt === null).length,
    passkeys: keys.length,
  };
}

const removedAnything = (removed: Removed) => removed.totp || removed.recoveryCodes > 0 || removed.passkeys > 0;

/** The security notice, sent whatever the person's email settings (as after a password change). */
async function queueResetNotice(tx: Tx, env: Env, email: string): Promise<void> {
  await queueEmail(
    tx,
    email,
    "second_factor_reset",
    renderEmail({
      subject: "Your Tranche second factor was reset",
      heading: "Your second factor was reset",
      paragraphs: [
        `An administrator reset the second factor of your Tranche account (${email}): your authenticator app, recovery codes and passkeys no longer work, and every session was signed out.`,
        "Sign in with your password and set up a second factor again. If you did not ask for this, contact your administrator at once.",
      ],
      action: { label: "Sign in", url: appUrl(env.PUBLIC_URL, "/login") },
      reason:
        "You receive this email because the second factor of your Tranche account was reset. It is sent for every reset, whatever your email settings.",
    }),
  );
}

/**
 * Removes a person's second factor and signs every session of theirs out (their push subscriptions end with them), in
 * one transaction with its audit event and the email telling them. They set one up again after signing in with their
 * password; a notification tells them so once they have. 409 for the admin's own (Account → Security is where they change theirs) and for someone with none.
 */
export async function resetSecondFactor({
  ctx,
  userId,
}: {
  ctx: ServiceContext;
  userId: string;
}): Promise<SecondFactorResetDto> {
  if (ctx.actor.role !== "admin") throw forbidden("Only an admin can reset a second factor.");
  if (userId === ctx.actor.id) {
    throw conflict("You cannot reset your own second factor here. Change it under Account → Security.");
  }
  return ctx.db.transaction(async (tx) => {
    // Two admins resetting at once: the second waits, then finds nothing to reset.
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for("no key update");
    if (!user) throw notFound("User");
    const removed = await removeSecondFactor(tx, userId);
    // Thrown before anything else is written: the transaction puts back what was deleted (an unfinished set-up).
    if (!removedAnything(removed)) throw conflict(`${user.name} has no second factor to reset.`);
    const ended = await tx.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
    await appendAudit(tx, {
      actorId: ctx.actor.id,
      action: "user.mfa_reset",
      entityType: "user",
      entityId: userId,
      before: removed,
      after: { sessionsEnded: ended.length },
    });
    await queueResetNotice(tx, ctx.env, user.email);
    // What they see once signed in again; the email above already told them, whatever their settings.
    await notify(tx, [userId], {
      title: "Your second factor was reset",
      message:
        "An administrator reset your second factor: your authenticator app, recovery codes and passkeys no longer work. Set one up again under Account → Security.",
      category: "account",
      link: "/account#security",
      email: false,
    });
    return { user: toUserAdminDto(user, false), removed, sessionsEnded: ended.length };
  });
}
