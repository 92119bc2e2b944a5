import type { Checklist, MilestoneStatus, ProjectStatus, Role } from "./constants";
import { fromCents, subtractMoney, toCents } from "./money";

/** Capital progress: round(disbursed / total × 100); 0 when total is 0 or disbursed is empty. */
export function progressPercent(disbursed: number | null | undefined, total: number | null | undefined): number {
  if (!total || !disbursed) return 0;
  return Math.round((disbursed / total) * 100);
}

/** A milestone's share of its project: round(capitalAmount / totalCapital × 100). */
export function milestoneShare(amount: number, total: number): number {
  if (!total) return 0;
  return Math.round((amount / total) * 100);
}

export interface MilestoneForStatus {
  status: MilestoneStatus;
  dueDate: string;
}

/**
 * docs/domain.md "Milestone states": funded when disbursed = total; at_risk when any milestone is rejected, delayed,
 * or past due and not verified; verified when at least one is verified and nothing is at risk;
 * otherwise pending_verification.
 */
export function deriveProjectStatus(input: {
  totalCapital: number;
  disbursedCapital: number;
  milestones: MilestoneForStatus[];
  today: string;
}): ProjectStatus {
  const { totalCapital, disbursedCapital, milestones, today } = input;
  if (totalCapital > 0 && disbursedCapital >= totalCapital) return "funded";
  const atRisk = milestones.some(
    (m) => m.status === "rejected" || m.status === "delayed" || (m.status !== "verified" && m.dueDate < today),
  );
  if (atRisk) return "at_risk";
  if (milestones.some((m) => m.status === "verified")) return "verified";
  return "pending_verification";
}

/** Amount by which milestone amounts would exceed the total capital; 0 when within it. */
export function capitalOverrun(totalCapital: number, milestoneAmounts: number[]): number {
  const cents = milestoneAmounts.reduce((sum, a) => sum + toCents(a), 0);
  return fromCents(Math.max(0, cents - toCents(totalCapital)));
}

export function remainingCapital(total: number, disbursed: number): number {
  return subtractMoney(total, disbursed);
}

/** Verification progress: 0 pending, 100 verified or rejected, 25 + 75 × checked share while in verification. */
export function verificationProgress(
  status: MilestoneStatus,
  checklist: Partial<Checklist> | null | undefined,
): number {
  if (status === "verified" || status === "rejected") return 100;
  if (status !== "in_verification") return 0;
  const values = Object.values(checklist ?? {});
  const checked = values.filter(Boolean).length;
  return Math.round(25 + 75 * (checked / 6));
}

export function checklistComplete(checklist: Partial<Checklist> | null | undefined): boolean {
  return Object.values(checklist ?? {}).filter(Boolean).length === 6;
}

/**
 * The milestone state machine (docs/domain.md "Milestone states"): every status change is one of these transitions,
 * carried out by one server function and checked again by a database trigger. `round` says what happens to the
 * verification round: "keep" it; "next" closes it with its decisions standing (a partial release); "void" closes it
 * and voids its decisions (leaving a rejection).
 */
export type TransitionName =
  | "start"
  | "resume"
  | "approve"
  | "release_part"
  | "reject"
  | "resubmit"
  | "reassign"
  | "delay"
  | "undelay";
export type TransitionActor = "owner" | "verifier" | "admin";
export interface MilestoneTransition {
  name: TransitionName;
  from: MilestoneStatus;
  to: MilestoneStatus;
  by: TransitionActor;
  round: "keep" | "next" | "void";
}
export const MILESTONE_TRANSITIONS: readonly MilestoneTransition[] = [
  { name: "start", from: "pending", to: "in_verification", by: "verifier", round: "keep" },
  { name: "resume", from: "delayed", to: "in_verification", by: "verifier", round: "keep" },
  // Approve and release_part also complete by an investor's countersignature.
  { name: "approve", from: "in_verification", to: "verified", by: "verifier", round: "keep" },
  { name: "release_part", from: "in_verification", to: "pending", by: "verifier", round: "next" },
  { name: "reject", from: "in_verification", to: "rejected", by: "verifier", round: "keep" },
  { name: "resubmit", from: "rejected", to: "pending", by: "owner", round: "void" },
  { name: "reassign", from: "rejected", to: "in_verification", by: "admin", round: "void" },
  { name: "delay", from: "pending", to: "delayed", by: "owner", round: "keep" },
  { name: "delay", from: "rejected", to: "delayed", by: "owner", round: "void" },
  { name: "undelay", from: "delayed", to: "pending", by: "owner", round: "keep" },
];

export function findTransition(name: TransitionName, from: MilestoneStatus): MilestoneTransition | undefined {
  return MILESTONE_TRANSITIONS.find((t) => t.name === name && t.from === from);
}

export function canTransition(from: MilestoneStatus, to: MilestoneStatus, by: TransitionActor): boolean {
  return MILESTONE_TRANSITIONS.some((t) => t.from === from && t.to === to && t.by === by);
}

/** The owner's transition from `from` to `to`, if there is one (what a status sent with an edit carries out). */
export function ownerTransition(from: MilestoneStatus, to: MilestoneStatus): MilestoneTransition | undefined {
  return MILESTONE_TRANSITIONS.find((t) => t.from === from && t.to === to && t.by === "owner");
}

/** Statuses the owner's edit form may offer for a milestone currently in `current`. */
export function ownerSelectableStatuses(current: MilestoneStatus): MilestoneStatus[] {
  const targets = MILESTONE_TRANSITIONS.filter((t) => t.from === current && t.by === "owner").map((t) => t.to);
  return [current, ...targets];
}

/** A milestone the owner may still edit or delete. */
export function isMilestoneEditable(status: MilestoneStatus): boolean {
  return status !== "verified" && status !== "in_verification";
}

/** Why a milestone cannot be edited or deleted now (null when it can): shown beside the disabled buttons. */
export function milestoneLockReason(status: MilestoneStatus): string | null {
  if (status === "verified") return "A verified milestone cannot be edited or deleted.";
  if (status === "in_verification") return "A milestone in verification cannot be edited or deleted.";
  return null;
}

/** The server's refusal (409) to delete a project with a release, said before the user tries. */
export const PROJECT_DELETE_LOCKED = "A project with verified milestones or released capital cannot be deleted.";
export const PROJECT_DELETE_VERIFYING = "A project with a milestone in verification cannot be deleted.";

/** Evidence is frozen with the decision that released capital. */
export const EVIDENCE_LOCKED = "Evidence cannot change once the milestone is verified.";

/** Side navigation links by role (docs/domain.md "Routes and navigation"). */
export const NAV_LINKS: Record<Role, { to: string; label: string }[]> = {
  investor: [
    { to: "/projects", label: "Projects" },
    { to: "/milestones", label: "Milestones" },
    { to: "/verifiers", label: "Verifiers" },
    { to: "/reports", label: "Reports" },
  ],
  project_owner: [
    { to: "/projects", label: "Projects" },
    { to: "/milestones", label: "Milestones" },
  ],
  verifier: [
    { to: "/verifications", label: "Verifications" },
    // The field view (the installable app's site visits), beside the queue it works from.
    { to: "/field", label: "Field" },
    { to: "/reports", label: "Reports" },
  ],
  admin: [
    { to: "/users", label: "Users" },
    { to: "/projects", label: "Projects" },
    { to: "/verifiers", label: "Verifiers" },
    { to: "/settings", label: "Settings" },
  ],
};

/**
 * Whether `role` may read the verifiers directory (names, organizations, email addresses, track records): the roles
 * whose navigation links to it. Anyone may sign up as a project owner, so the directory is not open to every account.
 */
export function seesVerifierDirectory(role: Role | null | undefined): boolean {
  return role != null && NAV_LINKS[role].some((link) => link.to === "/verifiers");
}
