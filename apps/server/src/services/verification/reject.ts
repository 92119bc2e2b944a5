import { POLICY_REJECTION_MIN, type SeenState, type VerificationDto } from "@tranche/domain";
import type { ServiceContext } from "../../context";
import { AppError } from "../../errors";
import { membersIn } from "../access";
import { type Replay, rememberAnswer, requestScope, storedAnswer } from "../idempotency";
import { transitionMilestone } from "../milestones/transition";
import { requirePolicyDecider } from "./access";
import { publishDecision } from "./events";
import { recordTransition, withLockedMilestone } from "./locked";
import { closeDispute, recordDecision, roundState } from "./quorum";
import { requireSeenState } from "./seen";

/**
 * in_verification → rejected; the comment (required by rejectSchema) tells the owner what to fix. Under a quorum
 * any assigned verifier's rejection rejects the milestone. An Idempotency-Key replays the first answer (as approve).
 */
export function rejectMilestone(
  ctx: ServiceContext,
  milestoneId: string,
  input: { comments: string; idempotencyKey?: string } & SeenState,
): Promise<Replay<VerificationDto> & { replayed: boolean }> {
  const scope = requestScope("reject", milestoneId, input);
  return withLockedMilestone(ctx, milestoneId, async (tx, access) => {
    const stored = await storedAnswer<VerificationDto>(tx, ctx.actor.id, input.idempotencyKey, scope);
    if (stored) return { ...stored, replayed: true };
    const state = await roundState(tx, access.milestone);
    requireSeenState(access, input, { policyVersion: state.rule.version });
    requirePolicyDecider(access, ctx.actor, state, "rejected");
    if (state.rule.version > 0 && input.comments.length < POLICY_REJECTION_MIN) {
      const problem = `Under this project's release policy a rejection needs a reason of at least ${POLICY_REJECTION_MIN} characters.`;
      throw new AppError("invalid_input", `comments: ${problem}`, { comments: problem });
    }
    await recordDecision(tx, access, ctx.actor, state, { kind: "reject", comment: input.comments });
    const now = new Date();
    const { closed: dispute } = await closeDispute(tx, access, state, "rejected", now);
    const updated = await transitionMilestone(
      tx,
      access.milestone,
      "reject",
      { verificationDate: now, comments: input.comments, verifierId: ctx.actor.id },
      now,
    );
    const body = await recordTransition(
      tx,
      ctx,
      access,
      updated,
      { action: "milestone.rejected", ...(dispute ? { after: { dispute } } : {}) },
      {
        recipients: membersIn(access, ["owner", "investor"]),
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
    await rememberAnswer(tx, ctx.actor.id, input.idempotencyKey, scope, { status: 200, body });
    return { status: 200, body, replayed: false };
  });
}
