import type { PushUrgency } from "@tranche/domain";
import { sql } from "drizzle-orm";
import { queryRows, type Tx } from "../../db/client";
import { notifications } from "../../db/schema";
import { notificationEmailsFrom } from "../email/notification-email";
import { queuePush } from "../push/deliver";

export interface NotificationInput {
  title: string;
  message: string;
  category: "welcome" | "account" | "milestone" | "verification" | "release" | "integration";
  link?: string | null;
  subject?: { projectId?: string; milestoneId?: string } | null;
  /**
   * Also pushed to the devices that enabled push, with this urgency; to `recipients` only when given (e.g. the
   * verifier of an overdue verification, not the admins told beside them).
   */
  push?: { urgency: PushUrgency; recipients?: (string | null)[] };
  /** false: no email of it, where the caller sends its own (a security notice sent whatever the settings). */
  email?: false;
}

/**
 * Creates one notification per recipient inside the caller's transaction (the insert trigger
 * NOTIFYs listeners on commit) and, in the same statement, an email for those who want this category at once; then a
 * push to the devices of those it is pushed to. The actor never notifies themself; duplicates are dropped.
 */
export async function notify(
  tx: Tx,
  recipients: Iterable<string | null | undefined>,
  input: NotificationInput,
  actorId?: string | null,
): Promise<void> {
  const userIds = [...new Set([...recipients].filter((id): id is string => !!id && id !== actorId))];
  if (userIds.length === 0) return;
  const link = input.link ?? null;
  const written = tx
    .insert(notifications)
    .values(
      userIds.map((userId) => ({
        userId,
        title: input.title,
        message: input.message,
        category: input.category,
        link,
        subject: input.subject ?? null,
      })),
    )
    .returning({ id: notifications.id, userId: notifications.userId });
  const emails =
    input.email === false
      ? sql`select 1`
      : notificationEmailsFrom(sql`written`, {
          title: input.title,
          message: input.message,
          category: input.category,
          link,
        });
  const rows = await queryRows<{ id: string; user_id: string }>(
    tx,
    sql`with written as (${written.getSQL()}), emails as (${emails}) select id, user_id from written`,
  );
  const push = input.push;
  if (push) {
    const pushed = rows.filter((row) => !push.recipients || push.recipients.includes(row.user_id));
    await queuePush(
      tx,
      pushed.map((row) => ({ id: row.id, userId: row.user_id })),
      push.urgency,
    );
  }
}
