import { EMAIL_CATEGORY_LABELS, EMAIL_DEFAULTS } from "@tranche/domain";
import { type SQL, sql } from "drizzle-orm";
import { emailPreferences, outbox, users } from "../../db/schema";
import { emailCategoryOf } from "./preferences";
import { EMAIL_TOPIC, type EmailPayload, type NotificationEmail } from "./queue";
import { appUrl, type RenderedEmail, renderEmail } from "./template";

/**
 * SQL that writes, from `inserted` (notifications just written: `id`, `user_id`), an email for each recipient who
 * wants the category at once: the recipients' choices (the category's default where they made none) are read where
 * the emails are written, in notify()'s statement. The message keeps what the notification says; the worker renders
 * it when it sends it (it knows PUBLIC_URL), so a notification's email is one message, sent at its first claim
 * (docs/decisions/031-less-work-per-approval.md).
 */
export function notificationEmailsFrom(inserted: SQL, notification: NotificationEmail): SQL {
  const category = emailCategoryOf(notification.category);
  const common = { kind: "notification", subject: notification.title, notification };
  return sql`insert into ${outbox} (topic, payload)
    select ${EMAIL_TOPIC}, ${JSON.stringify(common)}::jsonb || jsonb_build_object('to', u.email)
    from ${inserted} n join ${users} u on u.id = n.user_id
    left join ${emailPreferences} p on p.user_id = n.user_id and p.category = ${category}
    where coalesce(p.mode, ${EMAIL_DEFAULTS[category]}) = 'instant'`;
}

/** An email as it is sent and as the Outbox shows it: a notification's rendered from what it tells. */
export function renderedEmail(payload: EmailPayload, publicUrl: string): RenderedEmail {
  if (!("notification" in payload)) return payload;
  const { title, message, category, link } = payload.notification;
  return renderEmail({
    subject: title,
    heading: title,
    paragraphs: [message],
    action: { label: "Open in Tranche", url: appUrl(publicUrl, link ?? "/notifications") },
    reason: `You receive this because your email setting for ${EMAIL_CATEGORY_LABELS[emailCategoryOf(category)].label} is Instant. Change it in Tranche under Account → Email notifications.`,
  });
}
