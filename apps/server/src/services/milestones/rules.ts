import { capitalOverrun, formatMoney, isPastEverywhere } from "@tranche/domain";
import { and, eq, ne, sql } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { milestones } from "../../db/schema";
import { AppError, businessRule } from "../../errors";
import { toMoney } from "../../lib/money";
import type { ProjectRow } from "../access";

export const PAST_DUE_MESSAGE = "Due date cannot be in the past.";

/** A due date that is still today somewhere on earth is not past: the caller may be west of the server. */
export function assertNotPast(dueDate: string, now: Date = new Date()): void {
  if (isPastEverywhere(dueDate, now)) {
    throw new AppError("invalid_input", `dueDate: ${PAST_DUE_MESSAGE}`, { dueDate: PAST_DUE_MESSAGE });
  }
}

/**
 * The sum of a project's milestone amounts may not exceed its total capital (docs/domain.md "Money").
 * Call with the project row locked so two concurrent writes cannot both pass.
 */
export async function assertWithinCapital(
  tx: Tx,
  project: ProjectRow,
  amount: number,
  exceptMilestoneId?: string,
): Promise<void> {
  const [row] = await tx
    .select({ sum: sql<string>`coalesce(sum(${milestones.capitalAmount}), 0)` })
    .from(milestones)
    .where(
      and(eq(milestones.projectId, project.id), exceptMilestoneId ? ne(milestones.id, exceptMilestoneId) : undefined),
    );
  const over = capitalOverrun(toMoney(project.totalCapital), [toMoney(row.sum), amount]);
  if (over > 0) {
    throw businessRule(
      `Milestone amounts would exceed the project's total capital by ${formatMoney(over, project.currency)}.`,
      { exceedsBy: over },
    );
  }
}
