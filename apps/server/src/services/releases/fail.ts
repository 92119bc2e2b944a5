import type { ReleaseDto } from "@tranche/domain";
import type { CallerContext } from "../../context";
import { requireReleaseWriter } from "./access";
import { recordReleaseChange, requireCurrentInstruction, requireReleaseStatus, withLockedRelease } from "./transition";

/**
 * instructed → failed: the custodian could not pay. Admins are told, since the release now waits on one. A report
 * naming an instruction the release has since replaced is refused.
 */
export function failRelease(
  ctx: CallerContext,
  releaseId: string,
  input: { instructionId?: string; reason: string },
): Promise<ReleaseDto> {
  requireReleaseWriter(ctx.caller);
  return withLockedRelease(ctx, releaseId, async (tx, release) => {
    await requireCurrentInstruction(tx, release, input.instructionId);
    requireReleaseStatus(release, ["instructed"], "failed");
    return recordReleaseChange(
      tx,
      ctx,
      release,
      { status: "failed", failureReason: input.reason, failedAt: new Date() },
      {
        action: "release.failed",
        event: "release.failed",
        notifyAdmins: true,
        notice: {
          title: "Capital release failed",
          message: (amount, milestone, project) =>
            `The custodian could not pay ${amount} for "${milestone}" (${project}): ${input.reason}`,
        },
      },
    );
  });
}
