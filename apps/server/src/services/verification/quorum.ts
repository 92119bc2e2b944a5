// A milestone against its project's release policy (docs/domain.md "Release rules"): whose decisions count in the
// current round, how many approvals it needs, the share they agree on, and whether an investor must countersign.
import {
  type DisputeDto,
  needsCountersign,
  policyStatement,
  type QuorumDto,
  type ReleaseRule,
  requiredApprovalsFor,
  shareOf,
  type VerificationDecisionDto,
} from "@tranche/domain";
import { asc, desc, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { SessionUser } from "../../context";
import { type DbOrTx, queryRows, type Tx } from "../../db/client";
import { milestoneDisputes, projectMembers, users, verificationDecisions } from "../../db/schema";
import { moneyParam, toMoney } from "../../lib/money";
import type { MilestoneAccess, MilestoneRow } from "../access";
import { verifierCount } from "../release-policy/get";
import { currentRule } from "../release-policy/rule";
import { openAmount } from "../releases/sums";

export interface RoundState {
  rule: ReleaseRule;
  required: number;
  assignedVerifiers: number;
  /** Decisions of every round, oldest first (void ones included, for the record). */
  decisions: VerificationDecisionDto[];
  /** This round's decisions that count. */
  current: VerificationDecisionDto[];
  approvals: VerificationDecisionDto[];
  openAmount: number;
  /** What the quorum's lowest agreed share releases. */
  releaseAmount: number;
  quorumMet: boolean;
  /** The milestone's latest dispute; when its verifier was assigned for this round, they decide it alone. */
  dispute: DisputeDto | null;
  disputeVerifierId: string | null;
  countersignRequired: boolean;
  countersigned: boolean;
  awaitingCountersign: boolean;
}

async function latestDispute(db: DbOrTx, milestoneId: string) {
  const verifier = alias(users, "dispute_verifier");
  const [row] = await db
    .select({ d: milestoneDisputes, openedByName: users.name, verifierName: verifier.name })
    .from(milestoneDisputes)
    .innerJoin(users, eq(users.id, milestoneDisputes.openedBy))
    .leftJoin(verifier, eq(verifier.id, milestoneDisputes.verifierId))
    .where(eq(milestoneDisputes.milestoneId, milestoneId))
    .orderBy(desc(milestoneDisputes.openedAt))
    .limit(1);
  if (!row) return null;
  const { d } = row;
  const dto: DisputeDto = {
    id: d.id,
    statement: d.statement,
    openedByName: row.openedByName,
    openedAt: d.openedAt.toISOString(),
    verifierId: d.verifierId,
    verifierName: row.verifierName,
    assignedAt: d.assignedAt?.toISOString() ?? null,
    outcome: d.outcome,
    closedAt: d.closedAt?.toISOString() ?? null,
  };
  return { dto, verifierId: d.verifierId, round: d.round };
}

/** The assigned verifier's decision closes the open dispute, audited with it. */
export async function closeDispute(tx: Tx, state: RoundState, outcome: "approved" | "rejected", now: Date) {
  if (!state.dispute || state.dispute.closedAt || !state.disputeVerifierId) return null;
  await tx.update(milestoneDisputes).set({ outcome, closedAt: now }).where(eq(milestoneDisputes.id, state.dispute.id));
  return { disputeId: state.dispute.id, outcome };
}

/** Capital still open on a milestone: its amount less releases of earlier rounds (cancelled ones excepted). */
async function openAmountOf(db: DbOrTx, milestone: MilestoneRow): Promise<number> {
  const [row] = await queryRows<{ open: string }>(
    db,
    sql`select ${openAmount(sql`m`)} as open from milestones m where m.id = ${milestone.id}`,
  );
  return toMoney(row?.open ?? milestone.capitalAmount);
}

/** Verifiers whose approvals may count now: assigned to the project as verifiers, neither owning nor investing. */
async function eligibleVerifierIds(db: DbOrTx, projectId: string): Promise<Set<string>> {
  const rows = await db
    .select({ userId: projectMembers.userId, role: projectMembers.role, userRole: users.role })
    .from(projectMembers)
    .innerJoin(users, eq(users.id, projectMembers.userId))
    .where(eq(projectMembers.projectId, projectId));
  const conflicted = new Set(rows.filter((r) => r.role !== "verifier").map((r) => r.userId));
  return new Set(
    rows
      .filter((r) => r.role === "verifier" && r.userRole === "verifier" && !conflicted.has(r.userId))
      .map((r) => r.userId),
  );
}

/**
 * The approvals that count under the rule in force now: from verifiers still assigned (one removed, or whose
 * role changed, no longer counts), and, when organizations must differ, the first approval of each verified
 * organization (a policy tightened after two approvals from one organization counts them once).
 */
function countingApprovals(
  approvals: VerificationDecisionDto[],
  eligible: Set<string>,
  rule: ReleaseRule,
): VerificationDecisionDto[] {
  const assigned = approvals.filter((d) => eligible.has(d.userId));
  if (!rule.distinctOrganizations) return assigned;
  const seen = new Set<string>();
  return assigned.filter((d) => {
    const organization = d.organization?.trim().toLowerCase();
    if (!organization || seen.has(organization)) return false;
    seen.add(organization);
    return true;
  });
}

export async function roundState(db: DbOrTx, milestone: MilestoneRow): Promise<RoundState> {
  const rule = await currentRule(db, milestone.projectId);
  const assignedVerifiers = await verifierCount(db, milestone.projectId);
  const rows = await db
    .select({ decision: verificationDecisions, userName: users.name })
    .from(verificationDecisions)
    .innerJoin(users, eq(users.id, verificationDecisions.userId))
    .where(eq(verificationDecisions.milestoneId, milestone.id))
    .orderBy(asc(verificationDecisions.decidedAt), asc(verificationDecisions.id));
  const decisions: VerificationDecisionDto[] = rows.map(({ decision: d, userName }) => ({
    id: d.id,
    round: d.round,
    kind: d.kind,
    userId: d.userId,
    userName,
    organization: d.organization,
    share: Number(d.share),
    amount: d.amount === null ? null : toMoney(d.amount),
    comment: d.comment,
    policyVersion: d.policyVersion,
    decidedAt: d.decidedAt.toISOString(),
    voidedAt: d.voidedAt?.toISOString() ?? null,
    voidReason: d.voidedAt ? d.voidReason : null,
  }));
  const current = decisions.filter((d) => d.round === milestone.verificationRound && !d.voidedAt);
  const approvals = countingApprovals(
    current.filter((d) => d.kind === "approve"),
    await eligibleVerifierIds(db, milestone.projectId),
    rule,
  );
  const openAmount = await openAmountOf(db, milestone);
  const share = Math.min(100, ...approvals.map((d) => d.share));
  const releaseAmount = share >= 100 ? openAmount : shareOf(openAmount, share);
  const dispute = await latestDispute(db, milestone.id);
  const disputeVerifierId =
    dispute?.verifierId && dispute.round === milestone.verificationRound ? dispute.verifierId : null;
  const required = disputeVerifierId ? 1 : requiredApprovalsFor(rule, toMoney(milestone.capitalAmount));
  const quorumMet = approvals.length >= required;
  const countersignRequired = needsCountersign(rule, releaseAmount);
  const countersigned = current.some((d) => d.kind === "countersign");
  return {
    rule,
    required,
    assignedVerifiers,
    decisions,
    current,
    approvals,
    openAmount,
    releaseAmount,
    quorumMet,
    dispute: dispute ? dispute.dto : null,
    disputeVerifierId,
    countersignRequired,
    countersigned,
    awaitingCountersign: milestone.status === "in_verification" && quorumMet && countersignRequired && !countersigned,
  };
}

export function toQuorumDto(state: RoundState, currency: string): QuorumDto {
  return {
    policyVersion: state.rule.version,
    statement: policyStatement(state.rule, state.assignedVerifiers, currency),
    required: state.required,
    approvals: state.approvals.length,
    assignedVerifiers: state.assignedVerifiers,
    countersignRequired: state.countersignRequired,
    awaitingCountersign: state.awaitingCountersign,
    openAmount: state.openAmount,
    decisions: state.decisions,
  };
}

/** Whether `actor` already decided in the milestone's current round. */
export const hasDecided = (state: RoundState, actor: SessionUser) => state.current.some((d) => d.userId === actor.id);

/** Under the default rule only the verifier who started decides (as always); under a quorum, every assigned one. */
export const isQuorumRule = (state: RoundState) => state.required > 1;

/** The decider's verified organization (set by an admin), read inside the deciding transaction. */
export async function verifiedOrganizationOf(tx: Tx, userId: string): Promise<string | null> {
  const [row] = await tx.select({ organization: users.verifiedOrganization }).from(users).where(eq(users.id, userId));
  return row?.organization?.trim() || null;
}

/** Records a decision of the current round with what it is judged by later: organization and agreed amount. */
export async function recordDecision(
  tx: Tx,
  access: MilestoneAccess,
  actor: SessionUser,
  state: RoundState,
  decision: { kind: "approve" | "reject" | "countersign"; share?: number; comment?: string | null },
): Promise<void> {
  const share = decision.share ?? 100;
  await tx.insert(verificationDecisions).values({
    milestoneId: access.milestone.id,
    round: access.milestone.verificationRound,
    userId: actor.id,
    kind: decision.kind,
    share: share.toFixed(2),
    comment: decision.comment?.length ? decision.comment : null,
    policyVersion: state.rule.version,
    organization: await verifiedOrganizationOf(tx, actor.id),
    amount: decision.kind === "approve" ? moneyParam(shareOf(state.openAmount, share)) : null,
  });
}
