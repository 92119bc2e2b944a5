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
  subtractMoney,
  type VerificationDecisionDto,
} from "@tranche/domain";
import { eq, sql } from "drizzle-orm";
import type { SessionUser } from "../../context";
import { type DbOrTx, queryRows, type Tx } from "../../db/client";
import { milestoneDisputes, users, verificationDecisions } from "../../db/schema";
import { moneyParam, toMoney } from "../../lib/money";
import type { MilestoneAccess, MilestoneRow } from "../access";
import { toRule } from "../release-policy/rule";
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
  /** What the quorum's lowest agreed share releases, and never more than any approval's recorded amount. */
  releaseAmount: number;
  quorumMet: boolean;
  /** The milestone's latest dispute; when its verifier was assigned for this round, they decide it alone. */
  dispute: DisputeDto | null;
  disputeVerifierId: string | null;
  countersignRequired: boolean;
  countersigned: boolean;
  awaitingCountersign: boolean;
  /** What it was judged from: a decision recorded under the same lock is judged with it without a read. */
  source: RoundRow | undefined;
}

/**
 * The assigned verifier's decision closes the open dispute, audited with it (`closed`, null when none was open).
 * Resolves with the round as it then stands.
 */
export async function closeDispute(
  tx: Tx,
  access: MilestoneAccess,
  state: RoundState,
  outcome: "approved" | "rejected",
  now: Date,
): Promise<{ closed: { disputeId: string; outcome: "approved" | "rejected" } | null; state: RoundState }> {
  const { dispute, source } = state;
  if (!dispute || dispute.closedAt || !state.disputeVerifierId) return { closed: null, state };
  await tx.update(milestoneDisputes).set({ outcome, closedAt: now }).where(eq(milestoneDisputes.id, dispute.id));
  const closed = { disputeId: dispute.id, outcome };
  if (!source?.dispute) return { closed, state: await roundState(tx, access.milestone) };
  const closedSource = { ...source, dispute: { ...source.dispute, outcome, closed_at: now.toISOString() } };
  return { closed, state: judgeRound(closedSource, access.milestone) };
}

/**
 * The round after this transaction's own writes, under the milestone's lock, as a fresh read would find it: judged
 * again with the milestone as `updated` and, for a release, its amount no longer open. Undefined when `state` was
 * not read (the caller then reads it).
 */
export function roundAfter(state: RoundState, updated: MilestoneRow, released?: number): RoundState | undefined {
  if (!state.source) return undefined;
  const open = released === undefined ? state.source.open : moneyParam(subtractMoney(state.openAmount, released));
  return judgeRound({ ...state.source, open }, updated);
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

/** What a round is judged by, as stored: timestamps as ISO text, money and shares as exact text. */
interface RoundRow {
  policy: {
    version: number;
    required_approvals: number;
    thresholds: unknown;
    distinct_organizations: boolean;
    cosign_above: string | null;
  } | null;
  members: { user_id: string; role: string; user_role: string }[];
  decisions: {
    id: string;
    round: number;
    kind: VerificationDecisionDto["kind"];
    user_id: string;
    user_name: string;
    organization: string | null;
    share: string;
    amount: string | null;
    comment: string | null;
    policy_version: number;
    decided_at: string;
    voided_at: string | null;
    void_reason: VerificationDecisionDto["voidReason"];
  }[];
  open: string;
  dispute: {
    id: string;
    statement: string;
    opened_by_name: string;
    opened_at: string;
    verifier_id: string | null;
    verifier_name: string | null;
    assigned_at: string | null;
    outcome: DisputeDto["outcome"];
    closed_at: string | null;
    round: number | null;
  } | null;
}

const iso = (value: string) => new Date(value).toISOString();
const isoOrNull = (value: string | null) => (value === null ? null : iso(value));

/**
 * Everything a round is judged by, read in one statement (an approval reads it once, before its decision; the round
 * after its writes is judged from this read): the project's rule, its members, every decision on the milestone, the
 * open amount and the latest dispute.
 */
function readRound(db: DbOrTx, milestone: MilestoneRow): Promise<RoundRow[]> {
  return queryRows<RoundRow>(
    db,
    sql`select
      (select row_to_json(p) from (
         select version, required_approvals, thresholds, distinct_organizations, cosign_above::text as cosign_above
         from release_policies where project_id = ${milestone.projectId} order by version desc limit 1) p) as policy,
      (select coalesce(json_agg(x), '[]') from (
         select pm.user_id, pm.role, u.role as user_role
         from project_members pm join users u on u.id = pm.user_id where pm.project_id = ${milestone.projectId}) x) as members,
      (select coalesce(json_agg(x order by x.decided_at, x.id), '[]') from (
         select d.id, d.round, d.kind, d.user_id, u.name as user_name, d.organization, d.share::text as share,
                d.amount::text as amount, d.comment, d.policy_version, d.decided_at, d.voided_at, d.void_reason
         from verification_decisions d join users u on u.id = d.user_id where d.milestone_id = ${milestone.id}) x) as decisions,
      ${openAmount(sql`m`)}::text as open,
      (select row_to_json(x) from (
         select d.id, d.statement, o.name as opened_by_name, d.opened_at, d.verifier_id, v.name as verifier_name,
                d.assigned_at, d.outcome, d.closed_at, d.round
         from milestone_disputes d join users o on o.id = d.opened_by left join users v on v.id = d.verifier_id
         where d.milestone_id = ${milestone.id} order by d.opened_at desc limit 1) x) as dispute
    from milestones m where m.id = ${milestone.id}`,
  );
}

export async function roundState(db: DbOrTx, milestone: MilestoneRow): Promise<RoundState> {
  const [row] = await readRound(db, milestone);
  return judgeRound(row, milestone);
}

/** The round as `row` states it, under the project's rule. */
function judgeRound(row: RoundRow | undefined, milestone: MilestoneRow): RoundState {
  const policy = row?.policy ?? null;
  const rule = toRule(
    policy
      ? {
          version: policy.version,
          requiredApprovals: policy.required_approvals,
          thresholds: policy.thresholds,
          distinctOrganizations: policy.distinct_organizations,
          cosignAbove: policy.cosign_above,
        }
      : undefined,
  );
  const members = row?.members ?? [];
  const assignedVerifiers = members.filter((m) => m.role === "verifier").length;
  // Verifiers whose approvals may count now: assigned to the project as verifiers, neither owning nor investing.
  const conflicted = new Set(members.filter((m) => m.role !== "verifier").map((m) => m.user_id));
  const eligible = new Set(
    members
      .filter((m) => m.role === "verifier" && m.user_role === "verifier" && !conflicted.has(m.user_id))
      .map((m) => m.user_id),
  );
  const decisions: VerificationDecisionDto[] = (row?.decisions ?? []).map((d) => ({
    id: d.id,
    round: d.round,
    kind: d.kind,
    userId: d.user_id,
    userName: d.user_name,
    organization: d.organization,
    share: Number(d.share),
    amount: d.amount === null ? null : toMoney(d.amount),
    comment: d.comment,
    policyVersion: d.policy_version,
    decidedAt: iso(d.decided_at),
    voidedAt: isoOrNull(d.voided_at),
    voidReason: d.voided_at ? d.void_reason : null,
  }));
  // An open round counts only decisions made under the rule in force: a policy change voids the others
  // (release-policy/set.ts), and one in flight as the rule changed, committed just after, is not counted either.
  const open = milestone.status === "in_verification";
  const current = decisions.filter(
    (d) => d.round === milestone.verificationRound && !d.voidedAt && (!open || d.policyVersion === rule.version),
  );
  const approvals = countingApprovals(
    current.filter((d) => d.kind === "approve"),
    eligible,
    rule,
  );
  const openAmount = toMoney(row?.open ?? milestone.capitalAmount);
  const share = Math.min(100, ...approvals.map((d) => d.share));
  // Never more than any approval agreed to: a release cancelled after an approval gives its amount back to the
  // milestone, not to the approvals already recorded (the rest stays open for a follow-up round).
  const agreed = approvals.flatMap((d) => (d.amount === null ? [] : [d.amount]));
  const releaseAmount = Math.min(share >= 100 ? openAmount : shareOf(openAmount, share), ...agreed);
  const d = row?.dispute ?? null;
  const dispute: DisputeDto | null = d
    ? {
        id: d.id,
        statement: d.statement,
        openedByName: d.opened_by_name,
        openedAt: iso(d.opened_at),
        verifierId: d.verifier_id,
        verifierName: d.verifier_name,
        assignedAt: isoOrNull(d.assigned_at),
        outcome: d.outcome,
        closedAt: isoOrNull(d.closed_at),
      }
    : null;
  const disputeVerifierId = d?.verifier_id && d.round === milestone.verificationRound ? d.verifier_id : null;
  const required = disputeVerifierId ? 1 : requiredApprovalsFor(rule, toMoney(milestone.capitalAmount));
  const quorumMet = approvals.length >= required;
  const countersignRequired = needsCountersign(rule, toMoney(milestone.capitalAmount));
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
    dispute,
    disputeVerifierId,
    countersignRequired,
    countersigned,
    awaitingCountersign: milestone.status === "in_verification" && quorumMet && countersignRequired && !countersigned,
    source: row,
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
    releaseAmount: state.releaseAmount,
    decisions: state.decisions,
  };
}

/** Whether `actor` already decided in the milestone's current round. */
export const hasDecided = (state: RoundState, actor: SessionUser) => state.current.some((d) => d.userId === actor.id);

/** Under the default rule only the verifier who started decides (as always); under a quorum, every assigned one. */
export const isQuorumRule = (state: RoundState) => state.required > 1;

/** A person's verified organization (set by an admin; null when none), as SQL read where it is used. */
const verifiedOrganization = (userId: string) =>
  sql<
    string | null
  >`(select nullif(btrim(${users.verifiedOrganization}), '') from ${users} where ${users.id} = ${userId})`;

/** The decider's verified organization, read inside the deciding transaction. */
export async function verifiedOrganizationOf(tx: Tx, userId: string): Promise<string | null> {
  const [row] = await queryRows<{ organization: string | null }>(
    tx,
    sql`select ${verifiedOrganization(userId)} as organization`,
  );
  return row?.organization ?? null;
}

/**
 * Records a decision of the current round with what it is judged by later: organization and agreed amount. Resolves
 * to the round with it: `state` (read under the milestone's lock, which every decision takes) judged again with the
 * decision as written, the round's latest.
 */
export async function recordDecision(
  tx: Tx,
  access: MilestoneAccess,
  actor: SessionUser,
  state: RoundState,
  decision: { kind: "approve" | "reject" | "countersign"; share?: number; comment?: string | null },
): Promise<RoundState> {
  const share = decision.share ?? 100;
  const [written] = await tx
    .insert(verificationDecisions)
    .values({
      milestoneId: access.milestone.id,
      round: access.milestone.verificationRound,
      userId: actor.id,
      kind: decision.kind,
      share: share.toFixed(2),
      comment: decision.comment?.length ? decision.comment : null,
      policyVersion: state.rule.version,
      // Read where it is written: the decider's verified organization as it is now.
      organization: verifiedOrganization(actor.id),
      amount: decision.kind === "approve" ? moneyParam(shareOf(state.openAmount, share)) : null,
    })
    .returning();
  if (!state.source) return roundState(tx, access.milestone);
  const judged: RoundRow["decisions"][number] = {
    id: written.id,
    round: written.round,
    kind: written.kind as VerificationDecisionDto["kind"],
    user_id: written.userId,
    user_name: actor.name,
    organization: written.organization,
    share: written.share,
    amount: written.amount,
    comment: written.comment,
    policy_version: written.policyVersion,
    decided_at: written.decidedAt.toISOString(),
    voided_at: null,
    void_reason: null,
  };
  return judgeRound({ ...state.source, decisions: [...state.source.decisions, judged] }, access.milestone);
}
