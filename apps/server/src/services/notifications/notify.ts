import type { Tx } from "../../db/client";
import { notifications } from "../../db/schema";
import { queueNotificationEmails } from "../email/notification-email";

export interface NotificationInput {
  title: string;
  message: string;
  category: "welcome" | "account" | "milestone" | "verification" | "release" | "integration";
  link?: string | null;
  subject?: { projectId?: string; milestoneId?: string } | null;
}

/**
 * Creates one notification per recipient inside the caller's transaction (the insert trigger
 * NOTIFYs listeners on commit), and an email for those who want this category at once. The actor never
 * notifies themself; duplicates are dropped.
 */
export async function notify(
  tx: Tx,
  recipients: Iterable<string | null | undefined>,
  input: NotificationInput,
  actorId?: string | null,
): Promise<void> {
  const userIds = [...new Set([...recipients].filter((id): id is string => !!id && id !== actorId))];
  if (userIds.length === 0) return;
  const rows = await tx
    .insert(notifications)
    .values(
      userIds.map((userId) => ({
        userId,
        title: input.title,
        message: input.message,
        category: input.category,
        link: input.link ?? null,
        subject: input.subject ?? null,
      })),
    )
    .returning({ id: notifications.id, userId: notifications.userId, category: notifications.category });
  await queueNotificationEmails(tx, rows);
}
