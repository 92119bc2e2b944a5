import {
  canTransition,
  formatStatus,
  isMilestoneEditable,
  type MilestoneDetailDto,
  type MilestoneStatus,
  type updateMilestoneSchema,
} from "@tranche/domain";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { ServiceContext } from "../../context";
import { milestones, projects } from "../../db/schema";
import { conflict, forbidden } from "../../errors";
import { moneyParam, toMoney } from "../../lib/money";
import { memberIds, requireVisibleMilestone } from "../access";
import { appendAudit } from "../audit/append";
import { notify } from "../notifications/notify";
import { recomputeProjectStatus } from "../projects/recompute-status";
import { milestoneDetail } from "./get";
import { assertNotPast, assertWithinCapital } from "./rules";

type Input = z.output<typeof updateMilestoneSchema>;

export function notEditable(status: MilestoneStatus, verb: "edited" | "deleted") {
  return conflict(`This milestone is ${formatStatus(status)} and can no longer be ${verb}.`, { status });
}

/**
 * The owner or an admin edits a milestone that is not verified or in verification. Status may only move
 * the ways an owner may move it (DESIGN.md state machine).
 */
export async function updateMilestone(
  ctx: ServiceContext,
  milestoneId: string,
  input: Input,
): Promise<MilestoneDetailDto> {
  return ctx.db.transaction(async (tx) => {
    const access = await requireVisibleMilestone(tx, ctx.actor, milestoneId, { lock: true });
    if (!access.isOwner && !access.isAdmin) {
      throw forbidden("Only the project's owner or an admin can edit milestones.");
    }
    const { milestone } = access;
    const current = milestone.status as MilestoneStatus;
    if (!isMilestoneEditable(current)) throw notEditable(current, "edited");
    if (input.status && input.status !== current && !canTransition(current, input.status, "owner")) {
      throw conflict(`The status cannot change from ${formatStatus(current)} to ${formatStatus(input.status)}.`, {
        status: current,
      });
    }
    // An unchanged past date may stay (a late milestone keeps its date); a new one may not be in the past.
    if (input.dueDate !== undefined && input.dueDate !== milestone.dueDate) assertNotPast(input.dueDate);
    const [project] = await tx.select().from(projects).where(eq(projects.id, milestone.projectId)).for("update");
    if (input.capitalAmount !== undefined && input.capitalAmount !== toMoney(milestone.capitalAmount)) {
      await assertWithinCapital(tx, project, input.capitalAmount, milestone.id);
    }

    const changes: Partial<typeof milestones.$inferInsert> = {};
    if (input.title !== undefined && input.title !== milestone.title) changes.title = input.title;
    if (input.description !== undefined && input.description !== milestone.description)
      changes.description = input.description;
    if (input.dueDate !== undefined && input.dueDate !== milestone.dueDate) changes.dueDate = input.dueDate;
    if (input.capitalAmount !== undefined && input.capitalAmount !== toMoney(milestone.capitalAmount))
      changes.capitalAmount = moneyParam(input.capitalAmount);
    if (input.status !== undefined && input.status !== current) changes.status = input.status;

    let updated = milestone;
    if (Object.keys(changes).length > 0) {
      [updated] = await tx
        .update(milestones)
        .set({ ...changes, updatedAt: new Date() })
        .where(eq(milestones.id, milestoneId))
        .returning();
      const before = Object.fromEntries(
        Object.keys(changes).map((key) => [key, milestone[key as keyof typeof changes]]),
      );
      await appendAudit(tx, {
        actorId: ctx.actor.id,
        action: changes.status ? "milestone.status_changed" : "milestone.updated",
        entityType: "milestone",
        entityId: milestoneId,
        projectId: project.id,
        before,
        after: changes,
      });
      await recomputeProjectStatus(tx, project.id);
      if (changes.status) {
        await notify(
          tx,
          await memberIds(tx, project.id, ["investor", "verifier"]),
          {
            title: "Milestone status changed",
            message: `"${updated.title}" on ${project.name} is now ${formatStatus(changes.status)}.`,
            category: "milestone",
            link: `/milestones/${milestoneId}`,
            subject: { projectId: project.id, milestoneId },
          },
          ctx.actor.id,
        );
      }
    }
    return milestoneDetail(tx, { ...access, project, milestone: updated }, ctx.actor);
  });
}
