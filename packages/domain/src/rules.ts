import type { Checklist, MilestoneStatus, ProjectStatus, Role } from "./constants";

/** SPEC.md §9: round(disbursed / total × 100); 0 when total is 0 or disbursed is empty. */
export function progressPercent(disbursed: number | null | undefined, total: number | null | undefined): number {
  if (!total || !disbursed) return 0;
  return Math.round((disbursed / total) * 100);
}

/** SPEC.md §9: round(capitalAmount / totalCapital × 100). */
export function milestoneShare(amount: number, total: number): number {
  if (!total) return 0;
  return Math.round((amount / total) * 100);
}

export interface MilestoneForStatus {
  status: MilestoneStatus;
  dueDate: string;
}

/**
 * DESIGN.md: funded when disbursed = total; at_risk when any milestone is rejected, delayed,
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
  const cents = milestoneAmounts.reduce((sum, a) => sum + Math.round(a * 100), 0);
  return Math.max(0, cents - Math.round(totalCapital * 100)) / 100;
}

export function remainingCapital(total: number, disbursed: number): number {
  return (Math.round(total * 100) - Math.round(disbursed * 100)) / 100;
}

/** SPEC.md §4: 0 pending, 100 verified or rejected, 25 + 75 × checked share while in verification. */
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

/** The milestone state machine of DESIGN.md: which actor kind may move a milestone from → to. */
export type TransitionActor = "owner" | "verifier";
export const TRANSITIONS: ReadonlyArray<{ from: MilestoneStatus; to: MilestoneStatus; by: TransitionActor }> = [
  { from: "pending", to: "in_verification", by: "verifier" },
  { from: "delayed", to: "in_verification", by: "verifier" },
  { from: "in_verification", to: "verified", by: "verifier" },
  { from: "in_verification", to: "rejected", by: "verifier" },
  { from: "rejected", to: "pending", by: "owner" },
  { from: "pending", to: "delayed", by: "owner" },
  { from: "rejected", to: "delayed", by: "owner" },
  { from: "delayed", to: "pending", by: "owner" },
];

export function canTransition(from: MilestoneStatus, to: MilestoneStatus, by: TransitionActor): boolean {
  return TRANSITIONS.some((t) => t.from === from && t.to === to && t.by === by);
}

/** Statuses the owner's edit form may offer for a milestone currently in `current`. */
export function ownerSelectableStatuses(current: MilestoneStatus): MilestoneStatus[] {
  const targets = TRANSITIONS.filter((t) => t.from === current && t.by === "owner").map((t) => t.to);
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

/** Evidence is frozen with the decision that released capital. */
export const EVIDENCE_LOCKED = "Evidence cannot change once the milestone is verified.";

/** SPEC.md §2.1: side navigation links by role. */
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
    { to: "/reports", label: "Reports" },
  ],
  admin: [
    { to: "/users", label: "Users" },
    { to: "/projects", label: "Projects" },
    { to: "/verifiers", label: "Verifiers" },
    { to: "/settings", label: "Settings" },
  ],
};
