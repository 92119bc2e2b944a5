import { randomUUID } from "node:crypto";
import type { ReleaseDto } from "@tranche/domain";
import type { CallerContext } from "../../context";
import { requireReleaseAdmin } from "./access";
import { recordReleaseChange, requireReleaseStatus, withLockedRelease } from "./transition";

/** failed → instructed again, under a new instruction id: the same release, never a second one. */
export function reinstructRelease(ctx: CallerContext, releaseId: string): Promise<ReleaseDto> {
  requireReleaseAdmin(ctx.caller);
  return withLockedRelease(ctx, releaseId, async (tx, release) => {
    requireReleaseStatus(release, ["failed"], "re-instructed");
    return recordReleaseChange(
      tx,
      ctx,
      release,
      {
        status: "instructed",
        instructionId: randomUUID(),
        instructedAt: new Date(),
        failureReason: null,
        failedAt: null,
      },
      {
        action: "release.reinstructed",
        event: "release.instructed",
        notice: {
          title: "Capital release re-instructed",
          message: (amount, milestone, project) =>
            `The custodian was instructed again to pay ${amount} for "${milestone}" (${project}).`,
        },
      },
    );
  });
}
