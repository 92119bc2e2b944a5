import type { EmailKind } from "@tranche/domain";
import type { DbOrTx } from "../../db/client";
import { enqueue } from "../outbox/outbox";
import type { RenderedEmail } from "./template";

export const EMAIL_TOPIC = "email";

/** What a notification's email tells, kept in its message as it is: rendered where it is sent or shown. */
export interface NotificationEmail {
  title: string;
  message: string;
  category: string;
  link: string | null;
}

/** An email in the outbox: rendered, or (a notification's) what the notification tells. */
export type EmailPayload = {
  to: string;
  kind: EmailKind;
  /** Set by the worker once handled: sent through SMTP, or stored for admins (no SMTP_URL). */
  via?: "smtp" | "stored";
} & (RenderedEmail | { subject: string; notification: NotificationEmail });

export function emailPayload(to: string, kind: EmailKind, email: RenderedEmail): EmailPayload {
  return { to, kind, ...email };
}

/** Writes an email to the outbox in the caller's transaction: a rolled-back cause sends nothing. */
export async function queueEmail(tx: DbOrTx, to: string, kind: EmailKind, email: RenderedEmail): Promise<string> {
  return enqueue(tx, EMAIL_TOPIC, emailPayload(to, kind, email));
}
