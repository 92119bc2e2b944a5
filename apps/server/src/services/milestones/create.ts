import type { createMilestoneSchema, MilestoneDetailDto } from "@tranche/domain";
import type { z } from "zod";
import type { ServiceContext } from "../../context";
import { milestones } from "../../db/schema";
import { forbidden } from "../../errors";
import { moneyParam } from "../../lib/money";
import { memberIds, requireVisibleProject } from "../access";
import { appendAudit } from "../audit/append";
import { notify } from "../notifications/notify";
import { recomputeProjectStatus } from "../projects/recompute-status";
import { milestoneDetail } from "./get";
import { assertNotPast, assertWithinCapital } from "./rules";

/** The owner or an admin adds a milestone; it always starts pending. Investors and verifiers are told. */
export async function createMilestone(
  ctx: ServiceContext,
  projectId: string,
  input: z.output<typeof createMilestoneSchema>,
): Promise<MilestoneDetailDto> {
  return ctx.db.transaction(async (tx) => {
    const access = await requireVisibleProject(tx, ctx.actor, projectId, { lock: true });
    if (!access.isOwner && !access.isAdmin) throw forbidden("Only the project's owner or an admin can add milestones.");
    assertNotPast(input.dueDate);
    await assertWithinCapital(tx, access.project, input.capitalAmount);
    const [milestone] = await tx
      .insert(milestones)
      .values({
        projectId,
        title: input.title,
        description: input.description,
        dueDate: input.dueDate,
        capitalAmount: moneyParam(input.capitalAmount),
        status: "pending",
        createdBy: ctx.actor.id,
      })
      .returning();
    await appendAudit(tx, {
      actorId: ctx.actor.id,
      action: "milestone.created",
      entityType: "milestone",
      entityId: milestone.id,
      projectId,
      after: { ...input, status: "pending" },
    });
    await recomputeProjectStatus(tx, projectId);
    await notify(
      tx,
      await memberIds(tx, projectId, ["investor", "verifier"]),
      {
        title: "New milestone",
        message: `"${milestone.title}" was added to ${access.project.name}.`,
        category: "milestone",
        link: `/milestones/${milestone.id}`,
        subject: { projectId, milestoneId: milestone.id },
        // A new assignment for the project's verifiers.
        push: { urgency: "low", recipients: await memberIds(tx, projectId, ["verifier"]) },
      },
      ctx.actor.id,
    );
    return milestoneDetail(tx, { ...access, milestone }, ctx.actor);
  });
}
