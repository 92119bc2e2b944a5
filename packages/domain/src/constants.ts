export const ROLES = ["investor", "project_owner", "verifier", "admin"] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  investor: "Investor",
  project_owner: "Project Owner",
  verifier: "Verifier",
  admin: "Admin",
};

export const PROJECT_STATUSES = ["pending_verification", "verified", "funded", "at_risk"] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

export const MILESTONE_STATUSES = ["pending", "in_verification", "verified", "rejected", "delayed"] as const;
export type MilestoneStatus = (typeof MILESTONE_STATUSES)[number];

export const CURRENCIES = ["USD", "EUR", "GBP"] as const;
export type Currency = (typeof CURRENCIES)[number];
export const DEFAULT_CURRENCY: Currency = "USD";

export const MEMBER_ROLES = ["owner", "investor", "verifier"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const NOTIFICATION_CATEGORIES = ["welcome", "account", "milestone", "verification", "release"] as const;
export type NotificationCategory = (typeof NOTIFICATION_CATEGORIES)[number];

/** A release's statuses: instructed → settled | failed; failed → instructed | cancelled (docs/domain.md). */
export const RELEASE_STATUSES = ["instructed", "settled", "failed", "cancelled"] as const;
export type ReleaseStatus = (typeof RELEASE_STATUSES)[number];
export const RELEASE_STATUS_LABELS: Record<ReleaseStatus, string> = {
  instructed: "Instructed",
  settled: "Settled",
  failed: "Failed",
  cancelled: "Cancelled",
};
/** "Released" means instructed or settled: capital Tranche has told the custodian to pay. */
export const RELEASED_STATUSES: readonly ReleaseStatus[] = ["instructed", "settled"];

export const API_SCOPES = ["releases:read", "releases:write", "projects:read"] as const;
export type ApiScope = (typeof API_SCOPES)[number];
export const API_SCOPE_LABELS: Record<ApiScope, string> = {
  "releases:read": "Read releases",
  "releases:write": "Settle and fail releases",
  "projects:read": "Read projects",
};

/** The verification checklist, in display order. The keys are what the server stores. */
export const CHECKLIST_ITEMS = [
  { key: "documentation", label: "Documentation review complete" },
  { key: "compliance", label: "Compliance with project standards verified" },
  { key: "quality", label: "Quality standards met" },
  { key: "timeline", label: "Timeline adherence confirmed" },
  { key: "budget", label: "Budget utilization validated" },
  { key: "risk", label: "Risk assessment completed" },
] as const;
export type ChecklistKey = (typeof CHECKLIST_ITEMS)[number]["key"];
export type Checklist = Record<ChecklistKey, boolean>;

export const EMPTY_CHECKLIST: Checklist = {
  documentation: false,
  compliance: false,
  quality: false,
  timeline: false,
  budget: false,
  risk: false,
};

/**
 * The largest total capital (and milestone amount) accepted: 100 billion in any currency, well beyond any single
 * project, and far inside numeric(20,2) and exact JSON numbers.
 */
export const MAX_CAPITAL = 100_000_000_000;

/** List sizes and thresholds of the dashboards (docs/domain.md "Dashboards and lists"). */
export const LIMITS = {
  upcomingMilestones: 5,
  investorUpcomingMilestones: 3,
  verifierCompleted: 5,
  ownerDescriptionChars: 100,
  amberWithinDays: 14,
  urgentWithinDays: 3,
  notificationSkeletonRows: 3,
} as const;

/** Realtime reconnect delays in ms (1, 2, 5, then every 10 s). */
export const RECONNECT_DELAYS_MS = [1000, 2000, 5000, 10000] as const;
export const SSE_HEARTBEAT_MS = 30_000;

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 128;
