import {
  LIST_PAGE_SIZE,
  listCursor,
  NOTIFICATION_CATEGORIES,
  type NotificationDto,
  type Page,
  pageLimit,
} from "@tranche/domain";
import { and, eq, getTableColumns, gt, sql } from "drizzle-orm";
import { z } from "zod";
import type { ServiceContext } from "../../context";
import type { DbOrTx } from "../../db/client";
import { notifications } from "../../db/schema";
import { keyset, keysetPage, type SortSpec } from "../../lib/keyset";
import { type NotificationRow, toNotificationDto } from "./dto";

export const listNotificationsQuery = z.strictObject({
  cursor: listCursor,
  limit: pageLimit(LIST_PAGE_SIZE),
  /** "true": only the unread ones. */
  unread: z.enum(["true", "false"], { error: "Unread must be true or false." }).optional(),
  category: z
    .enum(NOTIFICATION_CATEGORIES, { error: `Category must be one of ${NOTIFICATION_CATEGORIES.join(", ")}.` })
    .optional(),
});

/** Newest first: the sequence number is unique and grows with every notification. */
const NEWEST: SortSpec = { name: "newest", direction: "desc", keys: [{ expr: notifications.seq, type: "bigint" }] };

/** The caller's notifications, newest first, optionally only the unread ones or one category, a page at a time. */
export async function listNotifications({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: z.output<typeof listNotificationsQuery>;
}): Promise<Page<NotificationDto>> {
  const page = keyset(NEWEST, input.cursor);
  const rows = await ctx.db
    .select({ ...getTableColumns(notifications), keysetKeys: page.keys })
    .from(notifications)
    .where(
      and(
        eq(notifications.userId, ctx.actor.id),
        input.unread === "true" ? eq(notifications.read, false) : undefined,
        input.category ? eq(notifications.category, input.category) : undefined,
        page.after,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(input.limit + 1);
  const { page: items, nextCursor } = keysetPage(rows, input.limit, NEWEST);
  return { items: items.map(toNotificationDto), nextCursor };
}

export async function unreadCount({ ctx }: { ctx: ServiceContext }): Promise<{ count: number }> {
  const [row] = await ctx.db
    .select({ count: sql<number>`count(*)::int` })
    .from(notifications)
    .where(and(eq(notifications.userId, ctx.actor.id), eq(notifications.read, false)));
  return { count: Number(row?.count ?? 0) };
}

/** A user's notifications after a sequence number, oldest first (what a reconnecting stream missed). */
export async function notificationsAfter(
  db: DbOrTx,
  userId: string,
  seq: number,
  limit = 500,
): Promise<NotificationRow[]> {
  return db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), gt(notifications.seq, seq)))
    .orderBy(notifications.seq)
    .limit(limit);
}

/** The newest seq of a user's notifications (0 when none): where a fresh stream starts. */
export async function latestSeq(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ seq: sql<string | null>`max(${notifications.seq})` })
    .from(notifications)
    .where(eq(notifications.userId, userId));
  return Number(row?.seq ?? 0);
}
