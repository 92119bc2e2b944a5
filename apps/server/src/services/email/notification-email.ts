import { EMAIL_CATEGORY_LABELS, EMAIL_DEFAULTS } from "@tranche/domain";
import { eq, sql } from "drizzle-orm";
import type { Deps } from "../../context";
import type { DbOrTx } from "../../db/client";
import { emailPreferences, notifications, outbox, users } from "../../db/schema";
import { enqueueOnce, WRITE_ONCE_RETRIES } from "../outbox/once";
import type { TopicConfig } from "../outbox/worker";
import { emailCategoryOf } from "./preferences";
import { EMAIL_TOPIC, emailPayload } from "./queue";
import { appUrl, renderEmail } from "./template";

const NOTIFICATION_EMAIL_TOPIC = "email.notification";

/**
 * Called by notify() in its transaction: every notification whose recipient wants its category at once gets an
 * outbox message; the worker renders it (it knows PUBLIC_URL) into an email. One statement: the recipients'
 * choices (the category's default where they made none) are read where the messages are written.
 */
export async function queueNotificationEmails(
  tx: DbOrTx,
  rows: { id: string; userId: string; category: string }[],
): Promise<void> {
  if (rows.length === 0) return;
  const category = emailCategoryOf(rows[0].category);
  await tx.execute(
    sql`insert into ${outbox} (topic, payload)
        select ${NOTIFICATION_EMAIL_TOPIC}, jsonb_build_object('notificationId', n.id)
        from (values ${sql.join(
          rows.map((row) => sql`(${row.id}::uuid, ${row.userId}::uuid)`),
          sql`, `,
        )}) as n(id, user_id)
        left join ${emailPreferences} p on p.user_id = n.user_id and p.category = ${category}
        where coalesce(p.mode, ${EMAIL_DEFAULTS[category]}) = 'instant'`,
  );
}

/** Renders each notification's email and queues it; reading, then one statement (the email, once). */
export function notificationEmailTopic(deps: Deps): Record<string, TopicConfig> {
  const { db, env } = deps;
  return {
    [NOTIFICATION_EMAIL_TOPIC]: {
      ...WRITE_ONCE_RETRIES,
      async handle(message) {
        const [row] = await db
          .select({
            title: notifications.title,
            message: notifications.message,
            category: notifications.category,
            link: notifications.link,
            email: users.email,
            name: users.name,
          })
          .from(notifications)
          .innerJoin(users, eq(users.id, notifications.userId))
          .where(eq(notifications.id, message.payload.notificationId));
        if (!row) return;
        const category = EMAIL_CATEGORY_LABELS[emailCategoryOf(row.category)].label;
        await enqueueOnce(
          db,
          message.id,
          EMAIL_TOPIC,
          emailPayload(
            row.email,
            "notification",
            renderEmail({
              subject: row.title,
              heading: row.title,
              paragraphs: [row.message],
              action: { label: "Open in Tranche", url: appUrl(env.PUBLIC_URL, row.link ?? "/notifications") },
              reason: `You receive this because your email setting for ${category} is Instant. Change it in Tranche under Account → Email notifications.`,
            }),
          ),
        );
      },
    },
  };
}
