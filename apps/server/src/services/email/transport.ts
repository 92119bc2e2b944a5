import nodemailer from "nodemailer";
import type { Deps } from "../../context";
import type { OutboxMessage } from "../outbox/outbox";
import type { TopicConfig } from "../outbox/worker";
import { renderedEmail } from "./notification-email";
import { EMAIL_TOPIC, type EmailPayload } from "./queue";

/** Retries for a mail server that is down or refuses for now; after the last, the message is dead. */
const EMAIL_RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 3_600_000] as const;
const EMAIL_MAX_ATTEMPTS = 12;

/**
 * The SMTP connection's time limits, each a fraction of the outbox lease, so a send that hangs fails (and is
 * retried) while its claim still holds the message, instead of going out after another process has resent it.
 * nodemailer's defaults (2 minutes to connect, 10 minutes of silence) outlast any lease.
 */
export function smtpOptions(url: string, leaseMs: number) {
  const quarter = Math.floor(leaseMs / 4);
  return {
    url,
    connectionTimeout: quarter,
    greetingTimeout: quarter,
    socketTimeout: quarter,
    dnsTimeout: Math.floor(leaseMs / 8),
  };
}

/**
 * The "email" outbox topic: through nodemailer when SMTP_URL is set, else kept in the outbox table for admins
 * (Settings → Outbox). Either way the message records how it was handled.
 */
export function emailTopic(deps: Deps): Record<string, TopicConfig> {
  const { env } = deps;
  const transporter = env.SMTP_URL ? nodemailer.createTransport(smtpOptions(env.SMTP_URL, env.OUTBOX_LEASE_MS)) : null;
  return {
    [EMAIL_TOPIC]: {
      retryDelaysMs: EMAIL_RETRY_DELAYS_MS,
      maxAttempts: EMAIL_MAX_ATTEMPTS,
      async handle(message: OutboxMessage) {
        const payload = message.payload as EmailPayload;
        const email = renderedEmail(payload, env.PUBLIC_URL);
        if (transporter) {
          await transporter.sendMail({
            from: env.EMAIL_FROM,
            to: payload.to,
            subject: email.subject,
            text: email.text,
            html: email.html,
            // The outbox id is stable across retries: a receiver can drop a repeat.
            messageId: `<${message.id}@tranche>`,
          });
        }
        // Recorded as the message is marked done.
        return { record: { via: transporter ? "smtp" : "stored" } };
      },
    },
  };
}
