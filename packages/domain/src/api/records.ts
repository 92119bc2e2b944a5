// The audit record, release certificates, notifications, inbound requests, dashboards, analytics and search as
// the API answers them.
import { z } from "zod";
import { MILESTONE_STATUSES, PROJECT_STATUSES } from "../constants";
import { CAPTURED_BY } from "../evidence";
import { amount, currency, day, id, instant, moneyTotalSchema, role, shape } from "./common";
import { verifierSchema } from "./verification";

export const auditEventSchema = shape({
  id: z.number().int(),
  action: z.string(),
  actor: shape({ id, name: z.string() }).nullable(),
  entityType: z.string(),
  entityId: z.string(),
  createdAt: instant,
  before: z.unknown(),
  after: z.unknown(),
}).meta({ id: "AuditEvent" });
export type AuditEventDto = z.infer<typeof auditEventSchema>;

/** A signed checkpoint of the audit chain's head (Ed25519 over `checkpointMessage`). */
export const auditCheckpointSchema = shape({
  id: z.number().int(),
  createdAt: instant,
  lastEventId: z.number().int(),
  headHash: z.string(),
  eventCount: z.number().int(),
  keyId: z.string(),
  signature: z.string(),
});
export type AuditCheckpointDto = z.infer<typeof auditCheckpointSchema>;

export const auditPublicKeySchema = shape({
  algorithm: z.literal("Ed25519"),
  keyId: z.string(),
  publicKeyPem: z.string(),
});

/** What a release certificate states (fixed when first issued); its SHA-256 is the certificate's fingerprint. */
export const certificateFactsSchema = shape({
  kind: z.literal("tranche.release-certificate"),
  version: z.literal(1),
  /** The amount as fixed decimal text, as printed on the certificate. */
  release: shape({ id, amount: z.string(), currency: z.string(), approvedAt: instant }),
  project: shape({ id, name: z.string(), location: z.string() }),
  milestone: shape({ id, title: z.string(), dueDate: day }),
  beneficiary: shape({ name: z.string(), organization: z.string().nullable() }),
  /** Every approval that made up the release, and an investor's countersignature when the policy asked for one. */
  approvals: z.array(
    shape({
      verifier: shape({ name: z.string(), organization: z.string().nullable() }),
      decision: z.enum(["approved", "countersigned"]),
      decidedAt: instant,
    }),
  ),
  policy: z.string(),
  /**
   * A partial release only: the agreed share (percent) of what was open on the milestone, that open amount, and
   * the verifiers' reason for releasing only part (absent on a whole release).
   */
  partial: shape({ share: z.number(), of: z.string(), reason: z.string() }).optional(),
  /**
   * The files as they stood at approval; a captured file with its tags (whose device, position, accuracy in metres, time,
   * distance to the site in metres) and every flag raised about a file, dismissed ones marked.
   */
  evidence: z.array(
    shape({
      name: z.string(),
      sha256: z.string(),
      size: z.number().int(),
      capture: shape({
        /** Whose device captured it (absent on certificates issued before this was recorded). */
        by: z.enum(CAPTURED_BY).optional(),
        latitude: z.number(),
        longitude: z.number(),
        accuracy: z.number().nullable(),
        capturedAt: instant,
        distanceToSiteM: z.number().nullable(),
      }).optional(),
      flags: z
        .array(shape({ code: z.string(), severity: z.string(), message: z.string(), dismissed: z.boolean() }))
        .optional(),
    }),
  ),
  auditEvent: shape({ id: z.number().int(), hash: z.string(), recordedAt: instant }).nullable(),
  issuedAt: instant,
});
export type CertificateFacts = z.infer<typeof certificateFactsSchema>;

export const certificateCheckpointSchema = shape({
  id: z.number().int(),
  lastEventId: z.number().int(),
  headHash: z.string(),
  keyId: z.string(),
  signature: z.string(),
  signedAt: instant,
});

/** GET /api/certificates/verify: whether a certificate matches Tranche's record, and if so what it states. */
export const certificateCheckSchema = z.discriminatedUnion("valid", [
  shape({ valid: z.literal(false) }),
  shape({
    valid: z.literal(true),
    fingerprint: z.string(),
    facts: certificateFactsSchema,
    checkpoint: certificateCheckpointSchema.nullable(),
    /** The release was cancelled after the certificate was issued: no capital was paid under it. */
    cancelled: z.boolean(),
  }),
]);
export type CertificateCheckDto = z.infer<typeof certificateCheckSchema>;

export const notificationSchema = shape({
  id,
  seq: z.number().int(),
  title: z.string(),
  message: z.string(),
  category: z.string(),
  read: z.boolean(),
  createdAt: instant,
  link: z.string().nullable(),
}).meta({ id: "Notification" });
export type NotificationDto = z.infer<typeof notificationSchema>;

/** A request sent through a public form (demo, early access, verifier partner), as admins see it. */
export const publicRequestDtoSchema = shape({
  id,
  kind: z.enum(["demo", "early_access", "verifier_partner"]),
  email: z.string(),
  name: z.string().nullable(),
  organization: z.string().nullable(),
  message: z.string().nullable(),
  source: z.string().nullable(),
  createdAt: instant,
}).meta({ id: "PublicRequest" });
export type PublicRequestDto = z.infer<typeof publicRequestDtoSchema>;

// ---------- dashboard ----------
export const dashboardMilestoneSchema = shape({
  id,
  title: z.string(),
  projectId: id,
  projectName: z.string(),
  dueDate: day,
  capitalAmount: amount,
  /** What is still open: the amount less releases already made of it (a partly released milestone). */
  openAmount: amount,
  currency,
  status: z.enum(MILESTONE_STATUSES),
});
export type DashboardMilestoneDto = z.infer<typeof dashboardMilestoneSchema>;

const dashboardProjectFields = {
  id,
  name: z.string(),
  status: z.enum(PROJECT_STATUSES),
  totalCapital: amount,
  disbursedCapital: amount,
  settledCapital: amount,
  remainingCapital: amount,
  currency,
};
export const dashboardProjectSchema = shape(dashboardProjectFields);
export type DashboardProjectDto = z.infer<typeof dashboardProjectSchema>;

/** The Overview cards, computed for the caller's role and visibility. */
export const overviewSchema = shape({
  /** Released capital of verified milestones now and 30 days ago, per currency. */
  capitalProtected: z.array(shape({ currency, amount, monthAgo: amount, changePercent: z.number().nullable() })),
  pendingVerification: shape({ capital: z.array(moneyTotalSchema), count: z.number().int() }),
  actionRequired: shape({ count: z.number().int(), label: z.string() }),
});
export type OverviewDto = z.infer<typeof overviewSchema>;

export const investorDashboardSchema = shape({
  role: z.literal("investor"),
  capitalUnderManagement: z.array(moneyTotalSchema),
  /** How many projects the portfolio holds (`portfolio` lists the first 100 by name). */
  projectCount: z.number().int(),
  /** Released (instructed or settled) capital per currency, with the settled part of it. */
  verifiedDisbursements: z.array(shape({ currency, amount, settled: amount, percentOfCommitted: z.number() })),
  pendingReviewCount: z.number().int(),
  riskAlertsCount: z.number().int(),
  portfolio: z.array(dashboardProjectSchema),
  upcomingMilestones: z.array(dashboardMilestoneSchema),
});
export type InvestorDashboardDto = z.infer<typeof investorDashboardSchema>;

export const ownerDashboardSchema = shape({
  role: z.literal("project_owner"),
  /** How many projects they own (`projects` lists the 100 newest). */
  totalProjects: z.number().int(),
  totalValue: z.array(moneyTotalSchema),
  fundingProgress: z.array(shape({ currency, percent: z.number() })),
  released: z.array(moneyTotalSchema),
  settled: z.array(moneyTotalSchema),
  projects: z.array(shape({ ...dashboardProjectFields, description: z.string() })),
  upcomingMilestones: z.array(dashboardMilestoneSchema),
});
export type OwnerDashboardDto = z.infer<typeof ownerDashboardSchema>;

export const adminDashboardSchema = shape({
  role: z.literal("admin"),
  totals: shape({ projects: z.number().int(), users: z.number().int(), verifiers: z.number().int() }),
  milestonesByStatus: z.record(z.enum(MILESTONE_STATUSES), z.number().int()),
  recentProjects: z.array(shape({ ...dashboardProjectFields, createdAt: instant })),
  verifiers: z.array(verifierSchema),
});
export type AdminDashboardDto = z.infer<typeof adminDashboardSchema>;

/** The verifier's role dashboard is its own feature (the verification queue); the overview still applies. */
export const verifierDashboardSchema = shape({ role: z.literal("verifier") });
export type VerifierDashboardDto = z.infer<typeof verifierDashboardSchema>;

export const dashboardSchema = shape({
  overview: overviewSchema,
  role: z.discriminatedUnion("role", [
    investorDashboardSchema,
    ownerDashboardSchema,
    adminDashboardSchema,
    verifierDashboardSchema,
  ]),
}).meta({ id: "Dashboard" });
export type DashboardDto = z.infer<typeof dashboardSchema>;

/** GET /api/analytics: the series the Reports charts draw, over the projects the caller may see. */
export const analyticsSchema = shape({
  /** Month by month (YYYY-MM), cumulative released (instructed or settled) and settled capital, per currency. */
  capital: z.array(
    shape({ currency, points: z.array(shape({ month: z.string(), released: amount, settled: amount })) }),
  ),
  /**
   * At the end of each month: how many milestones stood in each status. The current month is today's statuses,
   * the same counts as every other page (a partly released milestone is pending; a delayed one is delayed).
   */
  milestones: z.array(
    shape({
      month: z.string(),
      pending: z.number().int(),
      inVerification: z.number().int(),
      verified: z.number().int(),
      rejected: z.number().int(),
      delayed: z.number().int(),
    }),
  ),
  /** Days from verification start to decision, bucketed; admins only (null for others). */
  turnaround: z.array(shape({ bucket: z.string(), count: z.number().int() })).nullable(),
  /**
   * Open capital of milestones awaiting verification (pending or in verification: what the Pending Verification
   * card sums) by the month they are due, the next 12 months, per currency; one already past due counts now.
   */
  upcoming: z.array(shape({ currency, points: z.array(shape({ month: z.string(), amount })) })),
}).meta({ id: "Analytics" });
export type AnalyticsDto = z.infer<typeof analyticsSchema>;

/** GET /api/search?q=: header suggestions, a few of each kind the caller may see. */
export const searchResultsSchema = shape({
  projects: z.array(shape({ id, name: z.string(), location: z.string() })),
  milestones: z.array(shape({ id, title: z.string(), projectName: z.string() })),
  /** Admins only (empty for others). */
  people: z.array(shape({ id, name: z.string(), email: z.string(), role: role.nullable() })),
});
export type SearchResultsDto = z.infer<typeof searchResultsSchema>;

/** GET /api/health: whether the database is reachable and live updates are listening. */
/** GET /api/health/live: the process is up and answers. */
export const livenessSchema = shape({ status: z.literal("ok") });

/** GET /api/health/ready: whether a load balancer should send this process requests. */
export const readinessSchema = shape({
  status: z.enum(["ready", "draining", "unavailable"]),
  database: shape({ reachable: z.boolean() }),
});

export const healthSchema = shape({
  status: z.enum(["ok", "unavailable"]),
  database: shape({ kind: z.enum(["pglite", "postgres"]), reachable: z.boolean() }),
  realtime: z.string(),
});
