import type { NotificationDto } from "@tranche/domain";
import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { notifications } from "../../db/schema";
import { notFound } from "../../errors";
import { toNotificationDto } from "./dto";

/** Marks one of the caller's notifications read; another user's id answers 404 like a missing one. */
export async function markNotificationRead({ ctx, id }: { ctx: ServiceContext; id: string }): Promise<NotificationDto> {
  const [row] = await ctx.db
    .update(notifications)
    .set({ read: true })
    .where(and(eq(notifications.id, id), eq(notifications.userId, ctx.actor.id)))
    .returning();
  if (!row) throw notFound("Notification");
  return toNotificationDto(row);
}

export async function markAllNotificationsRead({ ctx }: { ctx: ServiceContext }): Promise<{ updated: number }> {
  const rows = await ctx.db
    .update(notifications)
    .set({ read: true })
    .where(and(eq(notifications.userId, ctx.actor.id), eq(notifications.read, false)))
    .returning({ id: notifications.id });
  return { updated: rows.length };
}
