import type { VerificationDto } from "@tranche/domain";
import { eq } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { milestones } from "../../db/schema";
import { memberIds } from "../access";
import { requireOwner, requireStatus } from "./access";
import { recordTransition, withLockedMilestone } from "./locked";

/** The owner marks a pending or rejected milestone as delayed; a verifier later resumes it. */
export function delayMilestone(ctx: ServiceContext, milestoneId: string): Promise<VerificationDto> {
  return withLockedMilestone(ctx, milestoneId, async (tx, access) => {
    requireOwner(access);
    requireStatus(access, ["pending", "rejected"], "delayed");
    const [updated] = await tx
      .update(milestones)
      .set({ status: "delayed", updatedAt: new Date() })
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
