import { formatMoney, subtractMoney, type VerificationDto } from "@tranche/domain";
import type { ServiceContext } from "../../context";
import type { Tx } from "../../db/client";
import { disbursements } from "../../db/schema";
import { conflict } from "../../errors";
import { moneyParam } from "../../lib/money";
import { type MilestoneAccess, membersIn } from "../access";
import { prepareCertificate } from "../certificates/facts";
import { transitionMilestone } from "../milestones/transition";
import { publishEvents } from "../outbox/outbox";
import { releaseEventData } from "../releases/dto";
import { decisionEvent } from "./events";
import { recordTransition } from "./locked";
import { type RoundState, roundAfter } from "./quorum";

/**
 * The decision that completes the rule creates the release, in its own transaction with the milestone row
 * locked (ADR 004): the whole open amount verifies the milestone; a lower agreed share releases that part and
 * returns the milestone to pending for a follow-up round. The unique (milestone, round) index backs this up.
 */
export async function completeRelease(
  tx: Tx,
  ctx: ServiceContext,
  access: MilestoneAccess,
  state: RoundState,
  decision: { comments?: string | null; verifierId: string | null; dispute?: unknown },
): Promise<VerificationDto> {
  const { project, milestone } = access;
  const now = new Date();
  const amount = state.releaseAmount;
  const partial = amount < state.openAmount;
  const updated = await transitionMilestone(
    tx,
    milestone,
    partial ? "release_part" : "approve",
    {
      verificationDate: now,
      ...(decision.comments === undefined ? {} : { comments: decision.comments?.length ? decision.comments : null }),
      verifierId: decision.verifierId,
      ...(partial ? { startedAt: null } : {}),
    },
    now,
  );
  const [release] = await tx
    .insert(disbursements)
    .values({
      milestoneId: milestone.id,
      projectId: project.id,
      amount: moneyParam(amount),
      currency: project.currency,
      releasedBy: ctx.actor.id,
      releasedAt: now,
      // Instructed as it is made: the same moment, never before the approval that made it.
      instructedAt: now,
      policyVersion: state.rule.version,
      round: milestone.verificationRound,
      // The approvals that counted (not one from a verifier since removed, nor a second from one organization)
      // and the countersignature.
      decisionIds: [...state.approvals, ...state.current.filter((d) => d.kind === "countersign")].map((d) => d.id),
    })
    .onConflictDoNothing()
    .returning();
  if (!release) throw conflict("Capital for this milestone has already been released.");
  const money = formatMoney(amount, project.currency);
  const remaining = partial ? subtractMoney(state.openAmount, amount) : undefined;
  // Read now, before the audit lock is taken: under it, only writes
  // (docs/decisions/029-approvals-hold-the-lock-for-writes-only.md).
  const certificate = await prepareCertificate(
    tx,
    { release, milestone: updated, project, verifier: ctx.actor },
    remaining,
  );
  // The instruction's approvalEventHash is added on its way out, with its checkpoint (withReleaseCheckpoint).
  await publishEvents(tx, [
    { type: "release.instructed", data: await releaseEventData(tx, release.id, { approvalCitedLater: true }) },
    ...(partial ? [] : [decisionEvent("milestone.verified", { milestone: updated, project, verifier: ctx.actor })]),
  ]);
  return recordTransition(
    tx,
    ctx,
    access,
    updated,
    {
      action: "milestone.approved",
      after: {
        release: {
          disbursementId: release.id,
          instructionId: release.instructionId,
          amount,
          currency: project.currency,
          policyVersion: state.rule.version,
          ...(partial ? { partial: true, remaining } : {}),
        },
        approvals: state.approvals.map((a) => ({ userId: a.userId, share: a.share, decidedAt: a.decidedAt })),
        ...(decision.dispute ? { dispute: decision.dispute } : {}),
      },
    },
    {
      recipients: membersIn(access, ["owner", "investor"]),
      title: partial ? "Part of a milestone released" : "Milestone verified",
      message: partial
        ? `"${updated.title}" (${project.name}): ${money} approved for release; ${formatMoney(subtractMoney(state.openAmount, amount), project.currency)} stays open for a follow-up verification.`
        : `"${updated.title}" (${project.name}) was verified: ${money} approved for capital release.`,
      category: "verification",
    },
    { certificate, round: roundAfter(state, updated, amount) },
  );
}
