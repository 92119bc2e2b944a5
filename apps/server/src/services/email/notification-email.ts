import { EMAIL_CATEGORY_LABELS } from "@tranche/domain";
import { eq } from "drizzle-orm";
import type { Deps } from "../../context";
import type { DbOrTx } from "../../db/client";
import { notifications, users } from "../../db/schema";
import { enqueueOnce, WRITE_ONCE_RETRIES } from "../outbox/once";
import { enqueueMany } from "../outbox/outbox";
import type { TopicConfig } from "../outbox/worker";
import { emailCategoryOf, modesFor } from "./preferences";
import { EMAIL_TOPIC, emailPayload } from "./queue";
import { appUrl, renderEmail } from "./template";

const NOTIFICATION_EMAIL_TOPIC = "email.notification";

/**
 * Called by notify() in its transaction: every notification whose recipient wants its category at once gets an
 * outbox message; the worker renders it (it knows PUBLIC_URL) into an email.
 */
export async function queueNotificationEmails(
  tx: DbOrTx,
  rows: { id: string; userId: string; category: string }[],
): Promise<void> {
  if (rows.length === 0) return;
  const category = emailCategoryOf(rows[0].category);
  const modes = await modesFor(
    tx,
    rows.map((row) => row.userId),
    category,
  );
  await enqueueMany(
    tx,
    NOTIFICATION_EMAIL_TOPIC,
    rows.filter((row) => modes.get(row.userId) === "instant").map((row) => ({ notificationId: row.id })),
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
