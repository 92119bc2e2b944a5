import type { SeenState, VerificationDto } from "@tranche/domain";
import type { ServiceContext } from "../../context";
import { requireCountersigner } from "./access";
import { withLockedMilestone } from "./locked";
import { recordDecision, roundState } from "./quorum";
import { completeRelease } from "./release";
import { requireSeenState } from "./seen";

/** An investor member countersigns a release the verifiers agreed on; this creates the release, once. */
export function countersignMilestone(
  ctx: ServiceContext,
  milestoneId: string,
  input: { comments?: string } & SeenState,
): Promise<VerificationDto> {
  return withLockedMilestone(ctx, milestoneId, async (tx, access) => {
    const before = await roundState(tx, access.milestone);
    requireCountersigner(access, ctx.actor, before);
    requireSeenState(access, input, { policyVersion: before.rule.version, openAmount: before.openAmount });
    const state = await recordDecision(tx, access, ctx.actor, before, { kind: "countersign", comment: input.comments });
    return completeRelease(tx, ctx, access, state, { verifierId: access.milestone.verifierId });
  });
}
