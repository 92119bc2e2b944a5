// Who may act on a milestone's verification (DESIGN.md "Separation of duties" and the permission table).
import { EVIDENCE_LOCKED, type MilestoneStatus, verificationProgress } from "@tranche/domain";
import type { SessionUser } from "../../context";
import { conflict, forbidden } from "../../errors";
import type { MilestoneAccess } from "../access";

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

export function verificationPermissions(access: MilestoneAccess, actor: SessionUser) {
  const { milestone } = access;
  const status = milestone.status as MilestoneStatus;
  const eligible = isEligibleVerifier(access, actor);
  const mine = !milestone.verifierId || milestone.verifierId === actor.id;
  return {
    canStart: eligible && (status === "pending" || status === "delayed"),
    canDecide: eligible && mine && status === "in_verification",
    canReport: eligible && milestone.verifierId === actor.id && (status === "verified" || status === "rejected"),
    canUpload: (access.isOwner || eligible) && status !== "verified",
    canResubmit: access.isOwner && status === "rejected",
    canDelay: access.isOwner && (status === "pending" || status === "rejected"),
    reasons: {
      ...(eligible && !mine && status === "in_verification"
        ? { decide: "Another verifier started this verification; only they can approve or reject it." }
        : {}),
      ...((access.isOwner || eligible) && status === "verified" ? { upload: EVIDENCE_LOCKED } : {}),
    },
  };
}

export function progressOf(status: string, checklist: unknown): number {
  return verificationProgress(status as MilestoneStatus, checklist as Record<string, boolean>);
}
