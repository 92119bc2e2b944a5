import type { VerificationDto } from "@tranche/domain";
import { eq } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { milestones } from "../../db/schema";
import { memberIds } from "../access";
import { requireOwner, requireStatus } from "./access";
import { recordTransition, withLockedMilestone } from "./locked";
import { voidRound } from "./quorum";

/** The owner marks a pending or rejected milestone as delayed; a verifier later resumes it. */
export function delayMilestone(ctx: ServiceContext, milestoneId: string): Promise<VerificationDto> {
  return withLockedMilestone(ctx, milestoneId, async (tx, access) => {
    requireOwner(access);
    const from = requireStatus(access, ["pending", "rejected"], "delayed");
    const now = new Date();
    // A rejected milestone resumes from delayed without a resubmission: its rejected round ends here.
    const round = from === "rejected" ? await voidRound(tx, access.milestone, now) : access.milestone.verificationRound;
    const [updated] = await tx
      .update(milestones)
      .set({ status: "delayed", verificationRound: round, updatedAt: now })
      .where(eq(milestones.id, milestoneId))
      .returning();
    return recordTransition(
      tx,
      ctx,
      access,
      updated,
      { action: "milestone.delayed" },
      {
        recipients: [...(await memberIds(tx, access.project.id, ["investor"])), updated.verifierId],
        title: "Milestone delayed",
        message: `"${updated.title}" (${access.project.name}) was marked as delayed.`,
        category: "milestone",
      },
    );
  });
}
