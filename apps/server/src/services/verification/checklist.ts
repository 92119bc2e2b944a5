import type { Checklist, VerificationDto } from "@tranche/domain";
import { eq } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { milestones } from "../../db/schema";
import { appendAudit } from "../audit/append";
import { requireDecidingVerifier, requireStatus } from "./access";
import { toChecklist, toVerificationDto } from "./dto";
import { withLockedMilestone } from "./locked";

/** Stores the six checklist items while the milestone is in verification (completeness is advisory). */
export function updateChecklist(
  ctx: ServiceContext,
  milestoneId: string,
  checklist: Checklist,
): Promise<VerificationDto> {
  return withLockedMilestone(ctx, milestoneId, async (tx, access) => {
    requireDecidingVerifier(access, ctx.actor);
    requireStatus(access, ["in_verification"], "checked");
    const [updated] = await tx
      .update(milestones)
      .set({ checklist, updatedAt: new Date() })
      .where(eq(milestones.id, milestoneId))
      .returning();
    await appendAudit(tx, {
      actorId: ctx.actor.id,
      action: "milestone.checklist_updated",
      entityType: "milestone",
      entityId: milestoneId,
      projectId: access.project.id,
      before: { checklist: toChecklist(access.milestone.checklist) },
      after: { checklist },
    });
    return toVerificationDto(tx, { ...access, milestone: updated }, ctx.actor);
  });
}
