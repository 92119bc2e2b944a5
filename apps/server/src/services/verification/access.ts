// Who may act on a milestone's verification: an assigned verifier who neither owns nor invests in the project, and
// nobody on their own work (docs/domain.md "People and roles", the permissions table).
import { EVIDENCE_LOCKED, type MilestoneStatus, verificationProgress } from "@tranche/domain";
import type { SessionUser } from "../../context";
import { conflict, forbidden } from "../../errors";
import type { MilestoneAccess } from "../access";
import { hasDecided, isQuorumRule, type RoundState } from "./quorum";

/** A verifier member of the project who neither owns nor invests in it. */
export function isEligibleVerifier(access: MilestoneAccess, actor: SessionUser): boolean {
  return (
    actor.role === "verifier" &&
    access.roles.includes("verifier") &&
    !access.roles.includes("owner") &&
    !access.roles.includes("investor")
  );
}

export function requireEligibleVerifier(access: MilestoneAccess, actor: SessionUser): void {
  if (actor.role !== "verifier" || !access.roles.includes("verifier")) {
    throw forbidden("Only a verifier assigned to this project can verify its milestones.");
  }
  if (access.roles.includes("owner") || access.roles.includes("investor")) {
    throw forbidden("You own or invest in this project, so you cannot verify it.");
  }
}

/** Approve, reject, checklist and report belong to the verifier who started the verification. */
export function requireDecidingVerifier(access: MilestoneAccess, actor: SessionUser): void {
  requireEligibleVerifier(access, actor);
  if (access.milestone.verifierId && access.milestone.verifierId !== actor.id) {
    throw forbidden("Only the verifier who started this verification can do this.");
  }
}

/**
 * Who may approve or reject under the project's rule: the starting verifier under the default rule; under a
 * quorum every assigned verifier, once each per round, until the quorum is complete.
 */
export function requirePolicyDecider(access: MilestoneAccess, actor: SessionUser, state: RoundState, verb: string) {
  if (state.disputeVerifierId) {
    requireEligibleVerifier(access, actor);
    if (state.disputeVerifierId !== actor.id) {
      throw forbidden("An admin assigned this disputed milestone to another verifier; only they can decide it.");
    }
  } else if (isQuorumRule(state)) requireEligibleVerifier(access, actor);
  else requireDecidingVerifier(access, actor);
  requireStatus(access, ["in_verification"], verb);
  if (hasDecided(state, actor)) throw conflict("You have already decided on this milestone in this verification.");
  if (state.quorumMet) throw conflict(QUORUM_COMPLETE);
}

const QUORUM_COMPLETE = "The verifiers' approvals are complete; the release awaits an investor's countersignature.";

/** An investor member (who does not own the project) countersigns once the quorum is complete. */
export function requireCountersigner(access: MilestoneAccess, actor: SessionUser, state: RoundState): void {
  if (actor.role !== "investor" || !access.roles.includes("investor") || access.isOwner) {
    throw forbidden("Only an investor in this project can countersign its releases.");
  }
  // The countersignature is a second pair of eyes: never those of someone who decided in the round.
  if (access.roles.includes("verifier") || state.current.some((d) => d.userId === actor.id)) {
    throw forbidden("You decided in this verification; another investor countersigns its release.");
  }
  requireStatus(access, ["in_verification"], "countersigned");
  if (!state.awaitingCountersign) {
    throw conflict(
      state.quorumMet
        ? "This release needs no countersignature."
        : `The verifiers have not yet agreed: ${state.approvals.length} of ${state.required} approvals.`,
    );
  }
}

export function requireOwner(access: MilestoneAccess): void {
  if (!access.isOwner) throw forbidden("Only the project owner can do this.");
}

/** 409 naming the current status, e.g. "Milestone is verified; it cannot be approved." */
export function requireStatus(
  access: MilestoneAccess,
  allowed: readonly MilestoneStatus[],
  verb: string,
): MilestoneStatus {
  const status = access.milestone.status as MilestoneStatus;
  if (!allowed.includes(status)) {
    throw conflict(`Milestone is ${status.replace("_", " ")}; it cannot be ${verb}.`, { status });
  }
  return status;
}

export function verificationPermissions(access: MilestoneAccess, actor: SessionUser, state: RoundState) {
  const { milestone } = access;
  const status = milestone.status as MilestoneStatus;
  const eligible = isEligibleVerifier(access, actor);
  const quorum = isQuorumRule(state);
  const mine = state.disputeVerifierId
    ? state.disputeVerifierId === actor.id
    : quorum || !milestone.verifierId || milestone.verifierId === actor.id;
  const openDispute = state.dispute && !state.dispute.closedAt ? state.dispute : null;
  const decided = hasDecided(state, actor);
  const open = status === "in_verification" && !state.quorumMet;
  const investor = actor.role === "investor" && access.roles.includes("investor") && !access.isOwner;
  return {
    canStart: eligible && (status === "pending" || status === "delayed"),
    canDecide: eligible && mine && open && !decided,
    canCountersign: investor && state.awaitingCountersign,
    canDispute: access.isOwner && status === "rejected" && !openDispute,
    canAssignDispute: access.isAdmin && !!openDispute && !openDispute.verifierId,
    canReport: eligible && milestone.verifierId === actor.id && (status === "verified" || status === "rejected"),
    canUpload: (access.isOwner || eligible) && status !== "verified",
    canResubmit: access.isOwner && status === "rejected" && !openDispute,
    canDelay: access.isOwner && (status === "pending" || status === "rejected") && !openDispute,
    reasons: {
      ...(eligible && !mine && status === "in_verification"
        ? { decide: "Another verifier started this verification; only they can approve or reject it." }
        : {}),
      ...(eligible && quorum && decided && status === "in_verification"
        ? { decide: `You have decided; ${state.approvals.length} of ${state.required} approvals so far.` }
        : {}),
      ...(eligible && mine && state.awaitingCountersign ? { decide: QUORUM_COMPLETE } : {}),
      ...((access.isOwner || eligible) && status === "verified" ? { upload: EVIDENCE_LOCKED } : {}),
      ...(investor && status === "in_verification" && state.countersignRequired && !state.quorumMet
        ? { countersign: `Waiting for the verifiers: ${state.approvals.length} of ${state.required} approvals.` }
        : {}),
    },
  };
}

export function progressOf(status: string, checklist: unknown): number {
  return verificationProgress(status as MilestoneStatus, checklist as Record<string, boolean>);
}
