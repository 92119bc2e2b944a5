// The verifier's field view (/field): today's assignments by urgency, and what a site visit needs offline.
import type { MilestoneStatus } from "./constants";
import { earliestTodayIso } from "./format";

/** Most urgent first: the order of the field view's list. */
export const FIELD_URGENCIES = ["overdue", "due_soon", "resubmitted", "new"] as const;
export type FieldUrgency = (typeof FIELD_URGENCIES)[number];
export const FIELD_URGENCY_LABELS: Record<FieldUrgency, string> = {
  overdue: "Overdue",
  due_soon: "Due soon",
  resubmitted: "Resubmitted",
  new: "New",
};

/** An assignment due within this many days is "due soon". */
export const FIELD_DUE_SOON_DAYS = 7;

const DAY_MS = 86_400_000;

/**
 * Why an assignment is urgent, most urgent reason first:
 * - `overdue`: its due date has passed everywhere on earth, or its verification has been open longer than the
 *   verification SLA (VERIFICATION_SLA_DAYS);
 * - `due_soon`: due within FIELD_DUE_SOON_DAYS days;
 * - `resubmitted`: the owner resubmitted it after a rejection;
 * - `new`: everything else.
 */
export function fieldUrgency(
  item: { dueDate: string; status: MilestoneStatus; startedAt: string | null; resubmitted: boolean },
  slaDays: number,
  now: Date = new Date(),
): FieldUrgency {
  const today = earliestTodayIso(now);
  const slaPassed =
    item.status === "in_verification" &&
    item.startedAt !== null &&
    now.getTime() - new Date(item.startedAt).getTime() > slaDays * DAY_MS;
  if (item.dueDate < today || slaPassed) return "overdue";
  const soon = new Date(now.getTime() + FIELD_DUE_SOON_DAYS * DAY_MS).toISOString().slice(0, 10);
  if (item.dueDate <= soon) return "due_soon";
  return item.resubmitted ? "resubmitted" : "new";
}

/** Urgency first, then the earliest due date, then the title: a stable order for the list. */
export function compareAssignments(
  a: { urgency: FieldUrgency; dueDate: string; title: string },
  b: { urgency: FieldUrgency; dueDate: string; title: string },
): number {
  return (
    FIELD_URGENCIES.indexOf(a.urgency) - FIELD_URGENCIES.indexOf(b.urgency) ||
    a.dueDate.localeCompare(b.dueDate) ||
    a.title.localeCompare(b.title)
  );
}
