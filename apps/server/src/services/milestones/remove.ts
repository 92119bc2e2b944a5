import type { MilestoneStatus } from "@tranche/domain";
import { eq } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { disbursements, milestones } from "../../db/schema";
import { conflict, forbidden } from "../../errors";
import { memberIds, requireVisibleMilestone } from "../access";
import { appendAudit } from "../audit/append";
import { notify } from "../notifications/notify";
import { recomputeProjectStatus } from "../projects/recompute-status";
import { requireNoOpenDispute } from "../verification/resubmit";
import { RELEASED_KEPT } from "./get";
import { notEditable } from "./update";

/** The owner or an admin deletes a milestone that is not verified or in verification, and has no release. */
export async function deleteMilestone(ctx: ServiceContext, milestoneId: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const access = await requireVisibleMilestone(tx, ctx.actor, milestoneId, { lock: true });
    if (!access.isOwner && !access.isAdmin) {
      throw forbidden("Only the project's owner or an admin can delete milestones.");
    }
    const { milestone, project } = access;
    const status = milestone.status as MilestoneStatus;
    if (status === "verified" || status === "in_verification") throw notEditable(status, "deleted");
    if (status === "rejected") await requireNoOpenDispute(tx, access, "deleted");
    // A partly released milestone is pending again, and its releases (the database's foreign key) keep it.
    const [release] = await tx
      .select({ id: disbursements.id })
      .from(disbursements)
      .where(eq(disbursements.milestoneId, milestoneId))
      .limit(1);
    if (release) throw conflict(RELEASED_KEPT, { status });
    await tx.delete(milestones).where(eq(milestones.id, milestoneId));
    await appendAudit(tx, {
      actorId: ctx.actor.id,
      action: "milestone.deleted",
      entityType: "milestone",
      entityId: milestoneId,
      projectId: project.id,
      before: {
        title: milestone.title,
        dueDate: milestone.dueDate,
        capitalAmount: milestone.capitalAmount,
        status,
      },
    });
    await recomputeProjectStatus(tx, project.id);
    await notify(
      tx,
      await memberIds(tx, project.id, ["investor", "verifier"]),
      {
        title: "Milestone removed",
        message: `"${milestone.title}" was removed from ${project.name}.`,
        category: "milestone",
        link: `/projects/${project.id}`,
        subject: { projectId: project.id },
      },
      ctx.actor.id,
    );
  });
}
