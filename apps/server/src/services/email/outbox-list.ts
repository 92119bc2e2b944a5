import type { OutboxEmailDto, OutboxLinkWithheld } from "@tranche/domain";
import { desc, eq, inArray } from "drizzle-orm";
import { hashLinkToken } from "../../auth/one-time-token";
import type { ServiceContext } from "../../context";
import { emailVerifications, invitations, outbox, passwordResets } from "../../db/schema";
import { forbidden } from "../../errors";
import { renderedEmail } from "./notification-email";
import { EMAIL_TOPIC, type EmailPayload } from "./queue";
import type { RenderedEmail } from "./template";

/** The kinds whose link is a one-time token that opens an account. */
const ACCOUNT_LINKS = new Set(["invitation", "password_reset", "email_verification"]);

const tokenOf = (link: string): string | null => {
  try {
    return new URL(link).searchParams.get("token");
  } catch {
    return null;
  }
};

/** Whether each token hash still works: an open invitation or an unused reset, not yet expired. */
async function linkStates(ctx: ServiceContext, hashes: string[]): Promise<Map<string, OutboxLinkWithheld | null>> {
  const states = new Map<string, OutboxLinkWithheld | null>();
  if (hashes.length === 0) return states;
  const now = Date.now();
  const invited = await ctx.db
    .select({
      hash: invitations.tokenHash,
      acceptedAt: invitations.acceptedAt,
      revokedAt: invitations.revokedAt,
      expiresAt: invitations.expiresAt,
    })
    .from(invitations)
    .where(inArray(invitations.tokenHash, hashes));
  for (const row of invited) {
    states.set(row.hash, row.acceptedAt || row.revokedAt ? "used" : row.expiresAt.getTime() <= now ? "expired" : null);
  }
  const resets = await ctx.db
    .select({ hash: passwordResets.tokenHash, usedAt: passwordResets.usedAt, expiresAt: passwordResets.expiresAt })
    .from(passwordResets)
    .where(inArray(passwordResets.tokenHash, hashes));
  for (const row of resets) {
    states.set(row.hash, row.usedAt ? "used" : row.expiresAt.getTime() <= now ? "expired" : null);
  }
  const confirmations = await ctx.db
    .select({
      hash: emailVerifications.tokenHash,
      usedAt: emailVerifications.usedAt,
      expiresAt: emailVerifications.expiresAt,
    })
    .from(emailVerifications)
    .where(inArray(emailVerifications.tokenHash, hashes));
  for (const row of confirmations) {
    states.set(row.hash, row.usedAt ? "used" : row.expiresAt.getTime() <= now ? "expired" : null);
  }
  return states;
}

/**
 * The latest emails (admins): what Tranche sent, and on a machine without SMTP what it would have sent. A link
 * that opens an account (invitation, password reset) is shown only while it works and only to an admin who has
 * passed the second factor: otherwise reading the Outbox would be a way into any account without it.
 */
export async function listOutboxEmails({
  ctx,
  secondFactorPassed,
}: {
  ctx: ServiceContext;
  secondFactorPassed: boolean;
}): Promise<OutboxEmailDto[]> {
  if (ctx.actor.role !== "admin") throw forbidden("Only an admin can see the outbox.");
  const rows = await ctx.db
    .select()
    .from(outbox)
    .where(eq(outbox.topic, EMAIL_TOPIC))
    .orderBy(desc(outbox.createdAt))
    .limit(100);
  const emails = rows.map((row) => {
    const payload = row.payload as EmailPayload;
    return { row, payload, email: renderedEmail(payload, ctx.env.PUBLIC_URL) };
  });
  const hashOf = ({ payload, email }: { payload: EmailPayload; email: RenderedEmail }) => {
    const token = ACCOUNT_LINKS.has(payload.kind) ? tokenOf(email.link) : null;
    return token ? hashLinkToken(token) : null;
  };
  // A link whose token is no longer in either table was replaced (a resent invitation): it no longer works.
  const states = await linkStates(
    ctx,
    emails.flatMap((e) => hashOf(e) ?? []),
  );
  return emails.map(({ row, payload, email }) => {
    const status =
      row.status === "dead"
        ? "failed"
        : row.status === "pending"
          ? "pending"
          : payload.via === "smtp"
            ? "sent"
            : "stored";
    let withheld: OutboxLinkWithheld | null = null;
    if (status === "stored" && ACCOUNT_LINKS.has(payload.kind)) {
      const hash = hashOf({ payload, email });
      const state = hash ? states.get(hash) : undefined;
      withheld = state === undefined ? "used" : state;
      if (!withheld && !secondFactorPassed) withheld = "second_factor_required";
    }
    const visible = status === "stored" && !withheld;
    return {
      id: row.id,
      to: payload.to,
      subject: email.subject,
      kind: payload.kind,
      status,
      createdAt: row.createdAt.toISOString(),
      attempts: row.attempts,
      lastError: row.lastError,
      text: visible ? email.text : null,
      link: visible ? email.link : null,
      linkWithheld: withheld,
    };
  });
}
