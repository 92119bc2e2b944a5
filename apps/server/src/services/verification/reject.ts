import type { VerificationDto } from "@tranche/domain";
import { eq } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { milestones } from "../../db/schema";
import { memberIds } from "../access";
import { requireDecidingVerifier, requireStatus } from "./access";
import { publishDecision } from "./events";
import { recordTransition, withLockedMilestone } from "./locked";

/** in_verification → rejected; the comment (required by rejectSchema) tells the owner what to fix. */
export function rejectMilestone(
  ctx: ServiceContext,
  milestoneId: string,
  input: { comments: string },
): Promise<VerificationDto> {
  return withLockedMilestone(ctx, milestoneId, async (tx, access) => {
    requireDecidingVerifier(access, ctx.actor);
    requireStatus(access, ["in_verification"], "rejected");
    const now = new Date();
    const [updated] = await tx
      .update(milestones)
      .set({
        status: "rejected",
        verificationDate: now,
        comments: input.comments,
        verifierId: ctx.actor.id,
        updatedAt: now,
      })
      .where(eq(milestones.id, milestoneId))
      .returning();
    const body = await recordTransition(
      tx,
      ctx,
      access,
      updated,
      { action: "milestone.rejected" },
      {
        recipients: await memberIds(tx, access.project.id, ["owner", "investor"]),
        title: "Milestone rejected",
        message: `"${updated.title}" (${access.project.name}) was rejected: ${input.comments}`,
        category: "verification",
      },
    );
    await publishDecision(tx, "milestone.rejected", {
      milestone: updated,
      project: access.project,
      verifier: ctx.actor,
    });
    return body;
  });
}
