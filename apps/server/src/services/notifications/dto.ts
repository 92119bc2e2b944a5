import type { NotificationDto } from "@tranche/domain";
import type { notifications } from "../../db/schema";

export type NotificationRow = typeof notifications.$inferSelect;

export function toNotificationDto(row: NotificationRow): NotificationDto {
  return {
    id: row.id,
    seq: Number(row.seq),
    title: row.title,
    message: row.message,
    category: row.category,
    read: row.read,
    createdAt: row.createdAt.toISOString(),
    link: row.link,
  };
}

/** What an event concerns, so an open page can refresh it (sent on the realtime stream only). */
export function subjectOf(row: NotificationRow): { projectId?: string; milestoneId?: string } {
  const subject = row.subject as { projectId?: unknown; milestoneId?: unknown } | null;
  return {
    ...(typeof subject?.projectId === "string" ? { projectId: subject.projectId } : {}),
    ...(typeof subject?.milestoneId === "string" ? { milestoneId: subject.milestoneId } : {}),
  };
}
