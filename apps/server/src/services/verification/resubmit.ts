import type { VerificationDto } from "@tranche/domain";
import { eq } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { milestones } from "../../db/schema";
import { conflict } from "../../errors";
import { requireOwner, requireStatus } from "./access";
import { recordTransition, withLockedMilestone } from "./locked";
import { roundState, voidRound } from "./quorum";

/**
 * The owner's resubmission: rejected → pending. The verifier stays on the milestone so they hear of it;
 * the rejection comment stays visible until the next decision replaces it. The round's decisions become void.
 */
export function resubmitMilestone(ctx: ServiceContext, milestoneId: string): Promise<VerificationDto> {
  return withLockedMilestone(ctx, milestoneId, async (tx, access) => {
    requireOwner(access);
    requireStatus(access, ["rejected"], "resubmitted");
    const { dispute } = await roundState(tx, access.milestone);
    if (dispute && !dispute.closedAt) throw conflict("This rejection is under dispute; it cannot be resubmitted.");
    const now = new Date();
    const round = await voidRound(tx, access.milestone, now);
    const [updated] = await tx
      .update(milestones)
      .set({ status: "pending", verificationDate: null, startedAt: null, verificationRound: round, updatedAt: now })
      .where(eq(milestones.id, milestoneId))
      .returning();
    return recordTransition(
      tx,
      ctx,
      access,
      updated,
      { action: "milestone.resubmitted" },
      {
        recipients: [updated.verifierId],
        title: "Milestone resubmitted",
        message: `${ctx.actor.name} resubmitted "${updated.title}" (${access.project.name}) for verification.`,
        category: "milestone",
      },
    );
  });
}
