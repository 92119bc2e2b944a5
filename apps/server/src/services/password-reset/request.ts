import { PASSWORD_RESET_TTL_MINUTES } from "@tranche/domain";
import { eq } from "drizzle-orm";
import { knownDeviceFor } from "../../auth/known-devices";
import { newLinkToken } from "../../auth/one-time-token";
import { enforce } from "../../auth/rate-limit";
import type { Deps } from "../../context";
import type { Db } from "../../db/client";
import { passwordResets, users } from "../../db/schema";
import type { Env } from "../../env";
import { queueEmail } from "../email/queue";
import { appUrl, renderEmail } from "../email/template";
import { transactionalTopic } from "../outbox/once";
import { enqueue } from "../outbox/outbox";
import type { TopicConfig } from "../outbox/worker";

const RESET_REQUEST_TOPIC = "password_reset.request";

/** Reset emails one address may be sent an hour on requests from one IP, or from one of its known devices… */
export const RESET_EMAILS_PER_SOURCE = 3;
/** …and on requests from anywhere but its known devices, all together. */
export const RESET_EMAILS_PER_ADDRESS = 10;

/**
 * "Forgot password?": counts the request against the caller's IP and the address, then writes one outbox message,
 * whether or not an account has this address. The lookup, the link and the email happen in the worker, so the
 * answer and its timing say nothing about which addresses have accounts.
 *
 * The address's allowance is kept per source (ADR 014): a browser that has signed in to the account before has
 * its own, which nobody else can spend; any other request spends the allowance of its (address, IP) and the
 * address's shared cap. A flood from elsewhere stops at the cap and never refuses the owner's own browser.
 */
export async function requestPasswordReset(
  db: Db,
  env: Env,
  email: string,
  source: { ip: string; device: string | null },
): Promise<void> {
  const device = await knownDeviceFor(db, source.device, email);
  const hour = 3600;
  await enforce(db, [
    { key: `reset:ip:${source.ip}`, max: env.PASSWORD_RESET_LIMIT_PER_IP, windowSeconds: 900 },
    ...(device
      ? [{ key: `reset:email:${email}:device:${device}`, max: RESET_EMAILS_PER_SOURCE, windowSeconds: hour }]
      : [
          { key: `reset:email:${email}:ip:${source.ip}`, max: RESET_EMAILS_PER_SOURCE, windowSeconds: hour },
          { key: `reset:email:${email}`, max: RESET_EMAILS_PER_ADDRESS, windowSeconds: hour },
        ]),
  ]);
  await enqueue(db, RESET_REQUEST_TOPIC, { email });
}

export function passwordResetTopic(deps: Deps): Record<string, TopicConfig> {
  const { db, env } = deps;
  return {
    [RESET_REQUEST_TOPIC]: transactionalTopic(db, async (tx, message) => {
      const [user] = await tx
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(eq(users.email, message.payload.email));
      if (!user) return;
      const { token, hash } = newLinkToken();
      await tx.insert(passwordResets).values({
        userId: user.id,
        tokenHash: hash,
        expiresAt: new Date(Date.now() + PASSWORD_RESET_TTL_MINUTES * 60_000),
      });
      await queueEmail(
        tx,
        user.email,
        "password_reset",
        renderEmail({
          subject: "Reset your Tranche password",
          heading: "Reset your password",
          paragraphs: [
            "Someone, hopefully you, asked to reset the password of your Tranche account.",
            `Choose a new password with the link below. It works once and expires in ${PASSWORD_RESET_TTL_MINUTES} minutes. Resetting signs you out everywhere.`,
          ],
          action: { label: "Choose a new password", url: appUrl(env.PUBLIC_URL, `/reset-password?token=${token}`) },
          reason: `You receive this email because a password reset was requested for ${user.email} on Tranche. If it was not you, ignore it: your password stays as it is.`,
        }),
      );
    }),
  };
}
