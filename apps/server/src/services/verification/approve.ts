import { formatMoney, type SeenState, shareOf, type VerificationDto } from "@tranche/domain";
import { eq } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import type { Tx } from "../../db/client";
import { milestones } from "../../db/schema";
import { businessRule } from "../../errors";
import { type MilestoneAccess, membersIn } from "../access";
import { rememberAnswer, requestScope, storedAnswer } from "../idempotency";
import { requirePolicyDecider } from "./access";
import { recordTransition, withLockedMilestone } from "./locked";
import {
  closeDispute,
  type RoundState,
  recordDecision,
  roundAfter,
  roundState,
  verifiedOrganizationOf,
} from "./quorum";
import { completeRelease } from "./release";
import { requireSeenState } from "./seen";

export interface ApproveResult {
  status: number;
  body: VerificationDto;
  replayed: boolean;
}

/**
 * An assigned verifier approves (all of the open amount, or a share). The approval that completes the project's
 * rule releases the capital exactly once: the row lock serialises decisions, the unique release per round backs
 * it up, and an Idempotency-Key replays the original answer to a retry (checked after the lock, so a concurrent
 * retry sees the committed key, and before the round is compared: a replay answers even once the round moved on).
 */
export function approveMilestone(
  ctx: ServiceContext,
  milestoneId: string,
  input: { comments?: string; share?: number; idempotencyKey?: string } & SeenState,
): Promise<ApproveResult> {
  const scope = requestScope("approve", milestoneId, input);
  return withLockedMilestone(ctx, milestoneId, async (tx, access) => {
    const stored = await storedAnswer<VerificationDto>(tx, ctx.actor.id, input.idempotencyKey, scope);
    if (stored) return { ...stored, replayed: true };
    const before = await roundState(tx, access.milestone);
    requireSeenState(access, input, { policyVersion: before.rule.version, openAmount: before.openAmount });
    requirePolicyDecider(access, ctx.actor, before, "approved");
    await requireDistinctOrganization(tx, ctx, before);
    requireReleasableShare(before, input.share, access.project.currency);
    const decided = await recordDecision(tx, access, ctx.actor, before, {
      kind: "approve",
      share: input.share,
      comment: input.comments,
    });
    const { closed, state } = await closeDispute(tx, access, decided, "approved", new Date());
    const body =
      state.quorumMet && !state.awaitingCountersign
        ? await completeRelease(tx, ctx, access, state, {
            comments: input.comments ?? null,
            verifierId: ctx.actor.id,
            dispute: closed,
          })
        : await recordApproval(tx, ctx, access, state, closed);
    // The same key racing on another milestone committed first: this approval rolls back as a conflict.
    await rememberAnswer(tx, ctx.actor.id, input.idempotencyKey, scope, { status: 200, body });
    return { status: 200, body, replayed: false };
  });
}

/**
 * Under a policy that asks for it, each approval that counts comes from a different organization: the verified
 * organization an admin set, as recorded with each earlier approval — never what a profile says.
 */
async function requireDistinctOrganization(tx: Tx, ctx: ServiceContext, state: RoundState): Promise<void> {
  if (!state.rule.distinctOrganizations) return;
  const organization = await verifiedOrganizationOf(tx, ctx.actor.id);
  if (!organization) {
    throw businessRule(
      "This project's release policy needs verifiers from different organizations, and an admin has not verified your organization yet.",
    );
  }
  const same = (o: string | null) => (o ?? "").trim().toLowerCase() === organization.toLowerCase();
  if (state.approvals.some((a) => same(a.organization))) {
    throw businessRule(
      `A verifier from ${organization} has already approved this milestone; this project's release policy needs approvals from different organizations.`,
    );
  }
}

/** A share must release at least a cent of what is open: less would be a release of nothing. */
function requireReleasableShare(state: RoundState, share: number | undefined, currency: string): void {
  if (shareOf(state.openAmount, share ?? 100) > 0) return;
  const message =
    share === undefined || share >= 100
      ? "Nothing is left open on this milestone to release."
      : `A ${share}% share of the ${formatMoney(state.openAmount, currency)} still open is less than a cent; approve a larger share.`;
  throw businessRule(message, { share: message });
}

/** An approval that does not yet complete the rule: recorded, audited and told to the members. */
async function recordApproval(
  tx: Tx,
  ctx: ServiceContext,
  access: MilestoneAccess,
  state: RoundState,
  dispute: unknown,
): Promise<VerificationDto> {
  const { project } = access;
  const [updated] = await tx
    .update(milestones)
    .set({ updatedAt: new Date() })
    .where(eq(milestones.id, access.milestone.id))
    .returning();
  const tally = `${state.approvals.length} of ${state.required} approvals`;
  const mine = state.approvals.find((a) => a.userId === ctx.actor.id);
  const countersign = state.awaitingCountersign;
  return recordTransition(
    tx,
    ctx,
    access,
    updated,
    {
      action: countersign ? "milestone.quorum_reached" : "milestone.approval_recorded",
      after: {
        approval: { share: mine?.share ?? 100, approvals: state.approvals.length, required: state.required },
        policyVersion: state.rule.version,
        ...(dispute ? { dispute } : {}),
      },
    },
    countersign
      ? {
          recipients: membersIn(access, ["investor"]),
          title: "Countersignature needed",
          message: `"${updated.title}" (${project.name}) has ${tally}: ${formatMoney(state.releaseAmount, project.currency)} is released once an investor countersigns.`,
          category: "verification",
        }
      : {
          recipients: membersIn(access, ["owner", "investor", "verifier"]),
          title: "Approval recorded",
          message: `${ctx.actor.name} approved "${updated.title}" (${project.name}): ${tally}.`,
          category: "verification",
        },
    { round: roundAfter(state, updated) },
  );
}
