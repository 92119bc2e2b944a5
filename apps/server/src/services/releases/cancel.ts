import type { ReleaseDto } from "@tranche/domain";
import type { CallerContext } from "../../context";
import { requireReleaseAdmin } from "./access";
import { recordReleaseChange, requireReleaseStatus, withLockedRelease } from "./transition";

/** failed → cancelled: the capital is no longer counted as released; the milestone stays verified. */
export function cancelRelease(ctx: CallerContext, releaseId: string, input: { reason: string }): Promise<ReleaseDto> {
  requireReleaseAdmin(ctx.caller);
  return withLockedRelease(ctx, releaseId, async (tx, release) => {
    requireReleaseStatus(release, ["failed"], "cancelled");
    return recordReleaseChange(
      tx,
      ctx,
      release,
      { status: "cancelled", cancellationReason: input.reason, cancelledAt: new Date() },
      {
        action: "release.cancelled",
        event: "release.cancelled",
        notice: {
          title: "Capital release cancelled",
          message: (amount, milestone, project) =>
            `The release of ${amount} for "${milestone}" (${project}) was cancelled: ${input.reason}`,
        },
      },
    );
  });
}
