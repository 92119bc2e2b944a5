// Shapes the API returns (camelCase DTOs, never raw rows). Money crosses as JSON numbers.

import type {
  ApiScope,
  Checklist,
  Currency,
  MemberRole,
  MilestoneStatus,
  ProjectStatus,
  ReleaseStatus,
  Role,
} from "./constants";
import type { EvidenceCaptureDto, EvidenceFlagDto } from "./evidence";
import type { ChecklistNotes } from "./field";
import type { ReleaseRule } from "./release-policy";

export interface UserDto {
  id: string;
  name: string;
  email: string;
  role: Role | null;
  organization: string | null;
  avatar: string | null;
  /** When the address was confirmed (the emailed sign-up link used, or an invitation accepted); null: not yet. */
  emailVerifiedAt: string | null;
}

export interface ApiErrorBody {
  error: { code: string; message: string; details?: unknown };
}

export interface ProjectSummaryDto {
  id: string;
  name: string;
  description: string;
  status: ProjectStatus;
  startDate: string | null;
  endDate: string | null;
  totalCapital: number;
  /** Released: instructed or settled. */
  disbursedCapital: number;
  /** Confirmed paid by the custodian. */
  settledCapital: number;
  remainingCapital: number;
  currency: Currency;
  location: string;
  /** The site's position in decimal degrees (both or neither): distances, directions and capture checks use it. */
  siteLatitude: number | null;
  siteLongitude: number | null;
  ownerId: string | null;
  milestoneCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface TeamMemberDto {
  id: string;
  name: string;
  email: string;
  organization: string | null;
  role: MemberRole;
  /** The project's lead investor (may set its release policy). */
  isLead: boolean;
}

export interface MilestoneCounts {
  total: number;
  verified: number;
  /** pending plus in_verification */
  pending: number;
  /** delayed and rejected combined */
  delayedOrRejected: number;
}

export interface ProjectDetailDto extends ProjectSummaryDto {
  owner: TeamMemberDto | null;
  investors: TeamMemberDto[];
  verifiers: TeamMemberDto[];
  milestones: MilestoneDto[];
  counts: MilestoneCounts;
  /** The release policy in force, in one sentence. */
  releasePolicy: { version: number; statement: string };
  permissions: {
    canEdit: boolean;
    canDelete: boolean;
    canManageMilestones: boolean;
    /** Only the owner moves a milestone's status from the edit form (each a transition the owner may make). */
    canSetMilestoneStatus: boolean;
    canAssign: boolean;
    /** Why an action the caller's role allows is refused in the project's present state. */
    reasons: { delete?: string };
  };
}

export interface MilestoneDto {
  id: string;
  projectId: string;
  title: string;
  description: string;
  dueDate: string;
  capitalAmount: number;
  status: MilestoneStatus;
  verifierId: string | null;
  verifierName: string | null;
  verificationDate: string | null;
  comments: string | null;
  checklist: Checklist;
  verificationProgress: number;
  evidenceCount: number;
  createdAt: string;
  updatedAt: string;
}

/** A milestone in a cross-project list (GET /api/milestones). */
export interface MilestoneListItemDto extends MilestoneDto {
  projectName: string;
  projectCurrency: Currency;
}

export interface MilestoneDetailDto extends MilestoneDto {
  projectName: string;
  projectTotalCapital: number;
  projectCurrency: Currency;
  startedAt: string | null;
  disbursedAt: string | null;
  /** The latest release of the milestone. */
  release: ReleaseDto | null;
  /** Every release of the milestone, oldest first: several after partial releases. */
  releases: ReleaseDto[];
  permissions: {
    canEdit: boolean;
    canDelete: boolean;
    canVerify: boolean;
    canUpload: boolean;
    canResubmit: boolean;
    /** Whether the edit form offers the owner's status transitions. */
    canSetStatus: boolean;
    /** Why an action the caller's role allows is refused in the milestone's present state. */
    reasons: { edit?: string; delete?: string; upload?: string };
  };
}

export interface EvidenceDto {
  id: string;
  milestoneId: string;
  originalName: string;
  size: number;
  contentType: string;
  sha256: string;
  uploadedBy: { id: string; name: string };
  createdAt: string;
  canRemove: boolean;
  /** The capturing device's position and time, when the file was captured in the field; else null. */
  capture: EvidenceCaptureDto | null;
  /** What the capture tags and the evidence checks raised about this file, dismissed ones included. */
  flags: EvidenceFlagDto[];
}

export interface AuditEventDto {
  id: number;
  action: string;
  actor: { id: string; name: string } | null;
  entityType: string;
  entityId: string;
  createdAt: string;
  before: unknown;
  after: unknown;
}

/** A signed checkpoint of the audit chain's head (Ed25519 over `checkpointMessage`). */
export interface AuditCheckpointDto {
  id: number;
  createdAt: string;
  lastEventId: number;
  headHash: string;
  eventCount: number;
  keyId: string;
  signature: string;
}

export interface VerifierDto {
  id: string;
  name: string;
  email: string;
  organization: string | null;
  expertise: string[];
  rating: number | null;
  completedVerifications: number;
  projectCount: number;
  turnaround: VerifierTurnaroundDto;
}

/** How fast a verifier decides: from the start of a verification to its approval or rejection. */
export interface VerifierTurnaroundDto {
  /** Over the verifier's latest (at most 100) decided verifications; null before the first. */
  medianHours: number | null;
  p90Hours: number | null;
  decided: number;
  /** Verifications the verifier started and has not decided. */
  open: number;
  /** Open longer than `slaDays`. */
  overdue: number;
  slaDays: number;
}

export interface NotificationDto {
  id: string;
  seq: number;
  title: string;
  message: string;
  category: string;
  read: boolean;
  createdAt: string;
  link: string | null;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** How many items a list holds under its filters and search, in all and per status (its status tabs). */
export interface StatusCountsDto<S extends string> {
  total: number;
  byStatus: Record<S, number>;
}

/** Money summed per currency: projects keep their own currency and amounts are never converted. */
export interface MoneyTotal {
  currency: Currency;
  amount: number;
}

export interface DashboardMilestoneDto {
  id: string;
  title: string;
  projectId: string;
  projectName: string;
  dueDate: string;
  capitalAmount: number;
  /** What is still open: the amount less releases already made of it (a partly released milestone). */
  openAmount: number;
  currency: Currency;
  status: MilestoneStatus;
}

export interface DashboardProjectDto {
  id: string;
  name: string;
  status: ProjectStatus;
  totalCapital: number;
  disbursedCapital: number;
  settledCapital: number;
  remainingCapital: number;
  currency: Currency;
}

/** The dashboard's Overview cards, computed for the caller's role and visibility. */
export interface OverviewDto {
  /** Released capital of verified milestones now and 30 days ago, per currency. */
  capitalProtected: { currency: Currency; amount: number; monthAgo: number; changePercent: number | null }[];
  pendingVerification: { capital: MoneyTotal[]; count: number };
  actionRequired: { count: number; label: string };
}

export interface InvestorDashboardDto {
  role: "investor";
  capitalUnderManagement: MoneyTotal[];
  /** Released (instructed or settled) capital per currency, with the settled part of it. */
  verifiedDisbursements: { currency: Currency; amount: number; settled: number; percentOfCommitted: number }[];
  pendingReviewCount: number;
  riskAlertsCount: number;
  portfolio: DashboardProjectDto[];
  upcomingMilestones: DashboardMilestoneDto[];
}

export interface OwnerDashboardDto {
  role: "project_owner";
  totalProjects: number;
  totalValue: MoneyTotal[];
  fundingProgress: { currency: Currency; percent: number }[];
  released: MoneyTotal[];
  settled: MoneyTotal[];
  projects: (DashboardProjectDto & { description: string })[];
  upcomingMilestones: DashboardMilestoneDto[];
}

export interface AdminDashboardDto {
  role: "admin";
  totals: { projects: number; users: number; verifiers: number };
  milestonesByStatus: Record<MilestoneStatus, number>;
  recentProjects: (DashboardProjectDto & { createdAt: string })[];
  verifiers: VerifierDto[];
}

/** The verifier's role dashboard is its own feature (the verification queue); the overview still applies. */
export interface VerifierDashboardDto {
  role: "verifier";
}

export interface DashboardDto {
  overview: OverviewDto;
  role: InvestorDashboardDto | OwnerDashboardDto | AdminDashboardDto | VerifierDashboardDto;
}

export interface UserAdminDto extends UserDto {
  createdAt: string;
  /** The organization an admin verified: what release rules compare (the profile's `organization` is display). */
  verifiedOrganization: string | null;
  organizationVerifiedAt: string | null;
}

/** The verification dialog's view of one milestone, with what the caller may do to it. */
export interface VerificationDto {
  milestoneId: string;
  projectId: string;
  projectName: string;
  currency: Currency;
  title: string;
  description: string;
  dueDate: string;
  capitalAmount: number;
  status: MilestoneStatus;
  verifierId: string | null;
  verifierName: string | null;
  startedAt: string | null;
  verificationDate: string | null;
  comments: string | null;
  checklist: Checklist;
  /** The verifier's note per checklist item (what was seen on site); items without one are absent. */
  checklistNotes: ChecklistNotes;
  progress: number;
  /** The verification round: bumped by a resubmission and a partial release. Decisions name the round they saw. */
  round: number;
  /** The report of the current decision, once submitted (submitting again edits it). */
  report: { id: string; createdAt: string; updatedAt: string } | null;
  quorum: QuorumDto;
  /** The latest dispute of a rejection, open or closed. */
  dispute: DisputeDto | null;
  permissions: {
    canStart: boolean;
    canDecide: boolean;
    /** An investor member may countersign once the verifiers' quorum is complete. */
    canCountersign: boolean;
    /** The owner may dispute a rejection (once per rejection). */
    canDispute: boolean;
    /** An admin assigns a different verifier to an open dispute. */
    canAssignDispute: boolean;
    canReport: boolean;
    canUpload: boolean;
    canResubmit: boolean;
    canDelay: boolean;
    /** Why an action the caller's role allows is refused in the milestone's present state. */
    reasons: { decide?: string; upload?: string; countersign?: string };
  };
}

export interface VerifierQueueItemDto {
  milestoneId: string;
  projectId: string;
  projectName: string;
  title: string;
  description: string;
  dueDate: string;
  capitalAmount: number;
  /** What is still open: the amount less releases already made of it (a partly released milestone). */
  openAmount: number;
  currency: Currency;
  status: MilestoneStatus;
  verificationDate: string | null;
  progress: number;
}

/** The signed-in verifier's queue. */
export interface VerifierQueueDto {
  counts: { assignedProjects: number; pending: number; completed: number };
  pending: VerifierQueueItemDto[];
  completed: VerifierQueueItemDto[];
  delayed: VerifierQueueItemDto[];
}

export interface VerificationReportDto {
  id: string;
  milestoneId: string;
  milestoneTitle: string;
  projectId: string;
  projectName: string;
  status: MilestoneStatus;
  checklist: Checklist;
  comments: string | null;
  evidence: { id: string; originalName: string; sha256: string; size: number }[];
  submittedBy: { id: string; name: string };
  createdAt: string;
  /** Later than createdAt when the report was submitted again (it is edited, never duplicated). */
  updatedAt: string;
}

/** A request sent through a public form (demo, early access, verifier partner), as admins see it. */
export interface PublicRequestDto {
  id: string;
  kind: "demo" | "early_access" | "verifier_partner";
  email: string;
  name: string | null;
  organization: string | null;
  message: string | null;
  source: string | null;
  createdAt: string;
}

/** What a release certificate states (fixed when first issued); its SHA-256 is the certificate's fingerprint. */
export interface CertificateFacts {
  kind: "tranche.release-certificate";
  version: 1;
  release: { id: string; amount: string; currency: string; approvedAt: string };
  project: { id: string; name: string; location: string };
  milestone: { id: string; title: string; dueDate: string };
  beneficiary: { name: string; organization: string | null };
  /** Every approval that made up the release, and an investor's countersignature when the policy asked for one. */
  approvals: {
    verifier: { name: string; organization: string | null };
    decision: "approved" | "countersigned";
    decidedAt: string;
  }[];
  policy: string;
  /**
   * A partial release only: the agreed share (percent) of what was open on the milestone, that open amount, and
   * the verifiers' reason for releasing only part (absent on a whole release).
   */
  partial?: { share: number; of: string; reason: string };
  /**
   * The files as they stood at approval; a captured file with its tags (position, accuracy in metres, time,
   * distance to the site in metres) and every flag raised about a file, dismissed ones marked.
   */
  evidence: {
    name: string;
    sha256: string;
    size: number;
    capture?: {
      latitude: number;
      longitude: number;
      accuracy: number | null;
      capturedAt: string;
      distanceToSiteM: number | null;
    };
    flags?: { code: string; severity: string; message: string; dismissed: boolean }[];
  }[];
  auditEvent: { id: number; hash: string; recordedAt: string } | null;
  issuedAt: string;
}

/** GET /api/certificates/verify: whether a certificate matches Tranche's record, and if so what it states. */
export type CertificateCheckDto =
  | { valid: false }
  | {
      valid: true;
      fingerprint: string;
      facts: CertificateFacts;
      checkpoint: {
        id: number;
        lastEventId: number;
        headHash: string;
        keyId: string;
        signature: string;
        signedAt: string;
      } | null;
      /** The release was cancelled after the certificate was issued: no capital was paid under it. */
      cancelled: boolean;
    };
/** A release: what Tranche instructed the custodian to pay for one verified milestone, and what came back. */
export interface ReleaseDto {
  id: string;
  instructionId: string;
  status: ReleaseStatus;
  amount: number;
  currency: Currency;
  milestone: { id: string; name: string };
  project: { id: string; name: string };
  approvedAt: string;
  instructedAt: string;
  settlement: { reference: string; settledAt: string } | null;
  failure: { reason: string; failedAt: string } | null;
  cancellation: { reason: string; cancelledAt: string } | null;
  updatedAt: string;
  permissions: { canReinstruct: boolean; canCancel: boolean };
}

export interface ApiTokenDto {
  id: string;
  name: string;
  prefix: string;
  scopes: ApiScope[];
  createdBy: { id: string; name: string } | null;
  /** The creator's name; null once their account was deleted. */
  createdByName: string | null;
  /** A token acts only while its creator is an admin: false after a demotion or deletion (it answers 401). */
  ownerActive: boolean;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** The answer to creating a token: the only time the token itself is shown. */
export interface CreatedApiTokenDto extends ApiTokenDto {
  token: string;
}

/** GET /api/analytics: the series the Reports charts draw, over the projects the caller may see. */
export interface AnalyticsDto {
  /** Month by month (YYYY-MM), cumulative released (instructed or settled) and settled capital, per currency. */
  capital: { currency: Currency; points: { month: string; released: number; settled: number }[] }[];
  /**
   * At the end of each month: how many milestones stood in each status. The current month is today's statuses,
   * the same counts as every other page (a partly released milestone is pending; a delayed one is delayed).
   */
  milestones: {
    month: string;
    pending: number;
    inVerification: number;
    verified: number;
    rejected: number;
    delayed: number;
  }[];
  /** Days from verification start to decision, bucketed; admins only (null for others). */
  turnaround: { bucket: string; count: number }[] | null;
  /**
   * Open capital of milestones awaiting verification (pending or in verification: what the Pending Verification
   * card sums) by the month they are due, the next 12 months, per currency; one already past due counts now.
   */
  upcoming: { currency: Currency; points: { month: string; amount: number }[] }[];
}

/** GET /api/search?q=: header suggestions, a few of each kind the caller may see. */
export interface SearchResultsDto {
  projects: { id: string; name: string; location: string }[];
  milestones: { id: string; title: string; projectName: string }[];
  /** Admins only (empty for others). */
  people: { id: string; name: string; email: string; role: Role | null }[];
}

export interface ReleasePolicyVersionDto extends ReleaseRule {
  /** One sentence, e.g. "2 of 3 assigned verifiers; investor countersign above $1,000,000". */
  statement: string;
  /** null for the default rule (version 0), which nobody set. */
  createdAt: string | null;
  createdByName: string | null;
}

export interface ReleasePolicyDto {
  projectId: string;
  currency: Currency;
  assignedVerifiers: number;
  current: ReleasePolicyVersionDto;
  /** Every stored version, newest first (empty while the default rule applies). */
  history: ReleasePolicyVersionDto[];
  canEdit: boolean;
}

/** One decision on a milestone under its release policy. */
export interface VerificationDecisionDto {
  id: string;
  round: number;
  kind: "approve" | "reject" | "countersign";
  userId: string;
  userName: string;
  /** The verified organization in force when the decision was made (what release rules compare). */
  organization: string | null;
  /** Percent of the open amount agreed (100 unless a partial approval). */
  share: number;
  /** For an approval: what its share of the then open amount came to, fixed when it was made (null otherwise). */
  amount: number | null;
  comment: string | null;
  policyVersion: number;
  decidedAt: string;
  /** The round was left from a rejection: this decision no longer counts. */
  voidedAt: string | null;
  /**
   * What voided it: the owner resubmitted, the owner marked the milestone delayed, or an admin reassigned the
   * disputed rejection to another verifier (null when not void, or voided before reasons were kept).
   */
  voidReason: "resubmit" | "delay" | "reassign" | null;
}

/** Where a milestone stands against its project's release policy. */
export interface QuorumDto {
  policyVersion: number;
  statement: string;
  required: number;
  /** Approvals that count in the current round. */
  approvals: number;
  assignedVerifiers: number;
  countersignRequired: boolean;
  awaitingCountersign: boolean;
  /** Capital still open on the milestone (its amount less earlier partial releases). */
  openAmount: number;
  decisions: VerificationDecisionDto[];
}

export interface DisputeDto {
  id: string;
  statement: string;
  openedByName: string;
  openedAt: string;
  verifierId: string | null;
  verifierName: string | null;
  assignedAt: string | null;
  outcome: "approved" | "rejected" | null;
  closedAt: string | null;
}
