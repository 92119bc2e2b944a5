import {
  CAPTURED_BY,
  EVIDENCE_CHECK_STATUSES,
  EVIDENCE_FLAG_CODES,
  EVIDENCE_FLAG_SEVERITIES,
  type ExtractedDocumentDto,
  RELEASE_STATUSES,
} from "@tranche/domain";
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/** Whom a release pays, as the database fixed it when the release was made. */
export interface Beneficiary {
  /** Null on a release made before beneficiaries were kept, named as its first instruction named them. */
  userId: string | null;
  name: string | null;
  organization: string | null;
}

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
const created = () => ts("created_at").notNull().defaultNow();
/** Money: numeric(20,2), read as a string by the drivers and converted at the DTO edge. */
const money = (name: string) => numeric(name, { precision: 20, scale: 2 });

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    passwordHash: text("password_hash").notNull(),
    role: text("role").notNull().default("project_owner"),
    organization: text("organization"),
    /** The organization release rules compare: set by an admin (audited), never by the user. */
    verifiedOrganization: text("verified_organization"),
    organizationVerifiedAt: ts("organization_verified_at"),
    organizationVerifiedBy: uuid("organization_verified_by"),
    avatarUrl: text("avatar_url"),
    expertise: text("expertise").array().notNull().default(sql`'{}'::text[]`),
    rating: numeric("rating", { precision: 2, scale: 1 }),
    /** When the address was shown to be theirs (a sign-up link used, or an invitation accepted); null: not yet. */
    emailVerifiedAt: ts("email_verified_at"),
    createdAt: created(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("users_email_key").on(t.email),
    index("users_role_idx").on(t.role),
    // The name sort's order (keyset.ts byName; migration 0041).
    index("users_name_id_idx").on(sql`${t.name} collate natural_order`, t.id),
    // The email sort's order (services/users/list.ts; migration 0042).
    index("users_email_id_idx").on(sql`${t.email} collate natural_order`, t.id),
    index("users_search_trgm_idx").using("gin", t.name.op("gin_trgm_ops"), t.email.op("gin_trgm_ops")),
    check("users_role_check", sql`${t.role} in ('investor', 'project_owner', 'verifier', 'admin')`),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    /** SHA-256 of the cookie token: a leaked table row cannot be replayed as a cookie. */
    id: text("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: created(),
    lastSeenAt: ts("last_seen_at").notNull().defaultNow(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    /** When this session last passed the second factor (null: never). */
    mfaVerifiedAt: ts("mfa_verified_at"),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** A user's TOTP secret, sealed with the secret box; enabled once a first code was accepted. */
export const mfaTotp = pgTable("mfa_totp", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secretSealed: text("secret_sealed").notNull(),
  enabledAt: ts("enabled_at"),
  /** The last 30-second step whose code was accepted: a code is good once. */
  lastUsedStep: bigint("last_used_step", { mode: "number" }),
  createdAt: created(),
});

/** Single-use recovery codes, stored as SHA-256 hashes. */
export const mfaRecoveryCodes = pgTable(
  "mfa_recovery_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: ts("used_at"),
    createdAt: created(),
  },
  (t) => [uniqueIndex("mfa_recovery_codes_user_hash_key").on(t.userId, t.codeHash)],
);

export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: ts("window_start").notNull(),
  count: integer("count").notNull(),
});

export const projects = pgTable(
  "projects",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    description: text("description").notNull(),
    status: text("status").notNull().default("pending_verification"),
    startDate: date("start_date", { mode: "string" }),
    endDate: date("end_date", { mode: "string" }),
    totalCapital: money("total_capital").notNull(),
    currency: text("currency").notNull().default("USD"),
    location: text("location").notNull().default(""),
    /** The site's position in decimal degrees, both or neither (migration 0021). */
    siteLatitude: doublePrecision("site_latitude"),
    siteLongitude: doublePrecision("site_longitude"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: created(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("projects_status_idx").on(t.status),
    index("projects_created_idx").on(t.createdAt),
    index("projects_created_id_idx").on(t.createdAt, t.id),
    // The name sort's order (keyset.ts byName; migration 0041).
    index("projects_name_id_idx").on(sql`${t.name} collate natural_order`, t.id),
    // What a release's currency refers to (migration 0033).
    uniqueIndex("projects_id_currency_key").on(t.id, t.currency),
    index("projects_search_trgm_idx").using(
      "gin",
      t.name.op("gin_trgm_ops"),
      t.location.op("gin_trgm_ops"),
      t.description.op("gin_trgm_ops"),
    ),
    check("projects_total_positive", sql`${t.totalCapital} > 0`),
    check("projects_currency_check", sql`${t.currency} in ('USD', 'EUR', 'GBP')`),
    check("projects_status_check", sql`${t.status} in ('pending_verification', 'verified', 'funded', 'at_risk')`),
    check(
      "projects_dates_check",
      sql`${t.endDate} is null or ${t.startDate} is null or ${t.endDate} >= ${t.startDate}`,
    ),
    check(
      "projects_site_check",
      sql`(${t.siteLatitude} IS NULL) = (${t.siteLongitude} IS NULL) AND (${t.siteLatitude} IS NULL OR (${t.siteLatitude} BETWEEN -90 AND 90 AND ${t.siteLongitude} BETWEEN -180 AND 180))`,
    ),
  ],
);

export const projectMembers = pgTable(
  "project_members",
  {
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role").notNull(),
    /** The project's lead investor (on an investor row): may set the release policy beside admins. */
    isLead: boolean("is_lead").notNull().default(false),
    createdAt: created(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.userId, t.role] }),
    // project_id included: a caller's visible projects are read from the index alone (dashboards, lists).
    index("project_members_user_idx").on(t.userId, t.role, t.projectId),
    // Which projects have a verifier (the admin's "projects without a verifier"), from the index alone.
    index("project_members_verifier_idx").on(t.projectId).where(sql`${t.role} = 'verifier'`),
    index("project_members_project_role_idx").on(t.projectId, t.role),
    check("project_members_role_check", sql`${t.role} in ('owner', 'investor', 'verifier')`),
  ],
);

export const milestones = pgTable(
  "milestones",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    description: text("description").notNull(),
    dueDate: date("due_date", { mode: "string" }).notNull(),
    capitalAmount: money("capital_amount").notNull(),
    status: text("status").notNull().default("pending"),
    verifierId: uuid("verifier_id").references(() => users.id, { onDelete: "set null" }),
    verificationDate: ts("verification_date"),
    startedAt: ts("started_at"),
    comments: text("comments"),
    /** Bumped by a resubmission (earlier decisions become void) and by a partial release (a follow-up round). */
    verificationRound: integer("verification_round").notNull().default(1),
    /** Counts the changes to its evidence (the database adds one for each statement that adds or removes a file). */
    evidenceVersion: integer("evidence_version").notNull().default(0),
    /** The six checklist items (docs/domain.md "Figures and formats"), keyed as in packages/domain CHECKLIST_ITEMS. */
    checklist: jsonb("checklist").notNull().default(sql`'{}'::jsonb`),
    /** The verifier's note per checklist item, keyed like `checklist`. */
    checklistNotes: jsonb("checklist_notes").notNull().default(sql`'{}'::jsonb`),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: created(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("milestones_project_idx").on(t.projectId, t.dueDate),
    index("milestones_open_due_idx").on(t.projectId, t.dueDate, t.createdAt).where(sql`${t.status} <> 'verified'`),
    // INCLUDE started_at (migration 0026): a verifier's open and overdue counts from the index alone.
    index("milestones_verifier_idx").on(t.verifierId, t.status),
    // A verifier's decided milestones, latest first, from the index alone (INCLUDE id, started_at: migration 0024):
    // their Completed count and turnaround (services/verifiers/decided.ts).
    index("milestones_verifier_decided_idx")
      .on(t.verifierId, t.verificationDate.desc())
      .where(sql`${t.status} in ('verified', 'rejected') and ${t.verificationDate} is not null`),
    index("milestones_status_due_idx").on(t.status, t.dueDate),
    index("milestones_due_keyset_idx").on(t.dueDate, t.createdAt, t.id),
    index("milestones_title_trgm_idx").using("gin", t.title.op("gin_trgm_ops")),
    check("milestones_amount_positive", sql`${t.capitalAmount} > 0`),
    check(
      "milestones_status_check",
      sql`${t.status} in ('pending', 'in_verification', 'verified', 'rejected', 'delayed')`,
    ),
  ],
);

/** The release record: one per milestone and verification round (a partial release opens a follow-up round); the
 * unique index makes each release exactly-once, and the triggers of migration 0014 keep the releases within the amount. */
export const disbursements = pgTable(
  "disbursements",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    milestoneId: uuid("milestone_id")
      .notNull()
      .references(() => milestones.id, { onDelete: "restrict" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "restrict" }),
    amount: money("amount").notNull(),
    currency: text("currency").notNull(),
    releasedBy: uuid("released_by")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    releasedAt: created(),
    /** instructed → settled | failed; failed → instructed (re-instructed) | cancelled. See services/releases. */
    status: text("status", { enum: RELEASE_STATUSES }).notNull().default("instructed"),
    /** What the custodian is told to pay; a re-instruction gets a new one, the release keeps its id. */
    instructionId: uuid("instruction_id").notNull().defaultRandom(),
    instructedAt: ts("instructed_at").notNull().defaultNow(),
    settlementReference: text("settlement_reference"),
    settledAt: ts("settled_at"),
    failureReason: text("failure_reason"),
    failedAt: ts("failed_at"),
    cancellationReason: text("cancellation_reason"),
    cancelledAt: ts("cancelled_at"),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    /** The release policy version that applied (0: the default rule, one approval). */
    policyVersion: integer("policy_version").notNull().default(0),
    /** The milestone's verification round this release closed: at most one release per round. */
    round: integer("round").notNull().default(1),
    /** The approvals (and countersignature) of that round that made this release; checked by the database. */
    decisionIds: uuid("decision_ids").array().notNull().default(sql`'{}'::uuid[]`),
    /**
     * Whom the release pays: the project's owner when it was made, as their profile named them. Written by the
     * database on insert and never changed (migration 0035); every instruction of the release names it.
     */
    beneficiary: jsonb("beneficiary").$type<Beneficiary | null>(),
  },
  (t) => [
    uniqueIndex("disbursements_milestone_key").on(t.milestoneId, t.round),
    // Made in its project's currency, which cannot change under it (migration 0033).
    foreignKey({
      name: "disbursements_project_currency_fkey",
      columns: [t.projectId, t.currency],
      foreignColumns: [projects.id, projects.currency],
    }),
    uniqueIndex("disbursements_instruction_key").on(t.instructionId),
    index("disbursements_project_idx").on(t.projectId),
    index("disbursements_status_idx").on(t.status, t.releasedAt, t.id),
    index("disbursements_created_idx").on(t.releasedAt, t.id),
    check("disbursements_amount_positive", sql`${t.amount} > 0`),
    check("disbursements_status_check", sql`${t.status} in ('instructed', 'settled', 'failed', 'cancelled')`),
    check(
      "disbursements_settled_check",
      sql`${t.status} <> 'settled' or (${t.settlementReference} is not null and ${t.settledAt} is not null)`,
    ),
  ],
);

/** A project's release policy, one row per version; the highest version applies. */
export const releasePolicies = pgTable(
  "release_policies",
  {
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    requiredApprovals: integer("required_approvals").notNull(),
    /** [{ minAmount, approvals }]: milestones of at least minAmount need that many approvals. */
    thresholds: jsonb("thresholds").notNull().default(sql`'[]'::jsonb`),
    distinctOrganizations: boolean("distinct_organizations").notNull().default(false),
    cosignAbove: money("cosign_above"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: created(),
  },
  (t) => [
    primaryKey({ name: "release_policies_pk", columns: [t.projectId, t.version] }),
    check("release_policies_version_check", sql`${t.version} >= 1`),
    check("release_policies_approvals_check", sql`${t.requiredApprovals} between 1 and 5`),
    check("release_policies_cosign_check", sql`${t.cosignAbove} is null or ${t.cosignAbove} > 0`),
  ],
);

/** Each verifier's approval or rejection, and an investor's countersignature, per verification round. */
export const verificationDecisions = pgTable(
  "verification_decisions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    milestoneId: uuid("milestone_id")
      .notNull()
      .references(() => milestones.id, { onDelete: "cascade" }),
    round: integer("round").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    kind: text("kind", { enum: ["approve", "reject", "countersign"] }).notNull(),
    /** Percent of the milestone's open amount this approval agrees to release. */
    share: numeric("share", { precision: 5, scale: 2 }).notNull().default("100"),
    comment: text("comment"),
    policyVersion: integer("policy_version").notNull(),
    /** The decider's verified organization when they decided: what "distinct organizations" compares. */
    organization: text("organization"),
    /** For an approval: the amount its share agreed to release, fixed when it was made. */
    amount: money("amount"),
    /** The milestone's evidence_version it was made on, written by the database (migration 0037). */
    evidenceVersion: integer("evidence_version").notNull().default(0),
    decidedAt: ts("decided_at").notNull().defaultNow(),
    /** Set when the decision no longer counts (shown as void): its round was left, its policy or evidence changed. */
    voidedAt: ts("voided_at"),
    /** What voided it: a transition ('resubmit', 'delay', 'reassign' of a dispute), 'policy' or 'evidence'. */
    voidReason: text("void_reason", { enum: ["resubmit", "delay", "reassign", "policy", "evidence"] }),
  },
  (t) => [
    // One live decision each (migration 0031): a policy change voids a round's decisions and they are made again.
    uniqueIndex("verification_decisions_once_key")
      .on(t.milestoneId, t.round, t.userId, t.kind)
      .where(sql`${t.voidedAt} is null`),
    // A milestone's decisions, voided ones included (migration 0032): what every round's state reads.
    index("verification_decisions_milestone_idx").on(t.milestoneId, t.round),
    // INCLUDE (milestone_id, decided_at) in migration 0020: drizzle-kit has no INCLUDE.
    index("verification_decisions_user_idx").on(t.userId, t.kind),
    check("verification_decisions_kind_check", sql`${t.kind} in ('approve', 'reject', 'countersign')`),
    check("verification_decisions_share_check", sql`${t.share} > 0 and ${t.share} <= 100`),
  ],
);

/** An owner's dispute of a rejection; an admin assigns a different verifier whose decision closes it. */
export const milestoneDisputes = pgTable(
  "milestone_disputes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    milestoneId: uuid("milestone_id")
      .notNull()
      .references(() => milestones.id, { onDelete: "cascade" }),
    statement: text("statement").notNull(),
    openedBy: uuid("opened_by")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    openedAt: ts("opened_at").notNull().defaultNow(),
    verifierId: uuid("verifier_id").references(() => users.id, { onDelete: "restrict" }),
    /** The verification round the assigned verifier decides alone. */
    round: integer("round"),
    assignedBy: uuid("assigned_by").references(() => users.id, { onDelete: "set null" }),
    assignedAt: ts("assigned_at"),
    outcome: text("outcome", { enum: ["approved", "rejected"] }),
    closedAt: ts("closed_at"),
  },
  (t) => [
    uniqueIndex("milestone_disputes_open_key").on(t.milestoneId).where(sql`${t.closedAt} is null`),
    check("milestone_disputes_outcome_check", sql`${t.outcome} is null or ${t.outcome} in ('approved', 'rejected')`),
  ],
);

/** A verification open longer than VERIFICATION_SLA_DAYS: its verifier and the admins were notified (once per start). */
export const verificationOverdueNotices = pgTable(
  "verification_overdue_notices",
  {
    milestoneId: uuid("milestone_id")
      .notNull()
      .references(() => milestones.id, { onDelete: "cascade" }),
    startedAt: ts("started_at").notNull(),
    verifierId: uuid("verifier_id").references(() => users.id, { onDelete: "set null" }),
    notifiedAt: ts("notified_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "verification_overdue_notices_pk", columns: [t.milestoneId, t.startedAt] })],
);

/** Browsers that have signed in to an account (a long-lived cookie; only its SHA-256 is kept). See ADR 014. */
export const knownDevices = pgTable(
  "known_devices",
  {
    deviceHash: text("device_hash").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: created(),
    lastSeenAt: ts("last_seen_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "known_devices_pk", columns: [t.deviceHash, t.userId] }),
    index("known_devices_user_idx").on(t.userId),
  ],
);

/** Scoped tokens for machine clients; only the SHA-256 of the token is stored. */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull(),
    /** The token's first characters, shown in the list so an admin can tell tokens apart. */
    prefix: text("prefix").notNull(),
    scopes: text("scopes").array().notNull(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: created(),
    lastUsedAt: ts("last_used_at"),
    revokedAt: ts("revoked_at"),
    revokedBy: uuid("revoked_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    uniqueIndex("api_tokens_hash_key").on(t.tokenHash),
    index("api_tokens_created_idx").on(t.createdAt),
    check(
      "api_tokens_scopes_check",
      sql`cardinality(${t.scopes}) > 0 and ${t.scopes} <@ array['releases:read', 'releases:write', 'projects:read']::text[]`,
    ),
  ],
);

export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    scope: text("scope").notNull(),
    status: integer("status").notNull(),
    body: jsonb("body").notNull(),
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

export const verificationReports = pgTable(
  "verification_reports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    milestoneId: uuid("milestone_id")
      .notNull()
      .references(() => milestones.id, { onDelete: "cascade" }),
    submittedBy: uuid("submitted_by")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    status: text("status").notNull(),
    checklist: jsonb("checklist").notNull(),
    comments: text("comments"),
    /** [{ id, originalName, sha256, size }] as they stood when the report was submitted. */
    evidence: jsonb("evidence").notNull(),
    /** The decision this report describes (the milestone's verification date): one report per decision. */
    decidedAt: ts("decided_at").notNull(),
    createdAt: created(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("verification_reports_milestone_idx").on(t.milestoneId, t.createdAt),
    uniqueIndex("verification_reports_decision_idx").on(t.milestoneId, t.decidedAt),
  ],
);

export const evidence = pgTable(
  "evidence",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    milestoneId: uuid("milestone_id")
      .notNull()
      .references(() => milestones.id, { onDelete: "cascade" }),
    sha256: text("sha256").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    contentType: text("content_type").notNull(),
    originalName: text("original_name").notNull(),
    uploadedBy: uuid("uploaded_by")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    /**
     * The uploader's role on the project at upload: whose device the capture tags come from (a verifier's on-site
     * capture or an owner's own statement). Kept with the file, as roles and ownership change later.
     */
    uploadedAs: text("uploaded_as", { enum: CAPTURED_BY }).notNull().default("owner"),
    createdAt: created(),
    /** Capture tags from the device (decimal degrees, metres): all of position and time, or none. */
    captureLatitude: doublePrecision("capture_latitude"),
    captureLongitude: doublePrecision("capture_longitude"),
    captureAccuracyM: doublePrecision("capture_accuracy_m"),
    capturedAt: ts("captured_at"),
    /** Computed by the server at upload from the project's site coordinates; null without them. */
    distanceToSiteM: doublePrecision("distance_to_site_m"),
  },
  (t) => [
    index("evidence_milestone_idx").on(t.milestoneId, t.createdAt),
    index("evidence_sha_idx").on(t.sha256),
    check("evidence_sha_check", sql`${t.sha256} ~ '^[0-9a-f]{64}$'`),
    check("evidence_uploaded_as_check", sql.raw(`uploaded_as IN (${CAPTURED_BY.map((c) => `'${c}'`).join(", ")})`)),
    check(
      "evidence_capture_check",
      sql`(${t.captureLatitude} IS NULL) = (${t.captureLongitude} IS NULL) AND (${t.captureLatitude} IS NULL) = (${t.capturedAt} IS NULL)`,
    ),
  ],
);

/**
 * What was raised about an evidence file, by its capture tags at upload or by the background checks: at most one
 * flag per code per file (a re-check updates it). A dismissal keeps the flag, with who, when and why (audited).
 * `details` holds what only admins may see (e.g. which other evidence a reused photo matches).
 */
export const evidenceFlags = pgTable(
  "evidence_flags",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    evidenceId: uuid("evidence_id")
      .notNull()
      .references(() => evidence.id, { onDelete: "cascade" }),
    code: text("code").notNull(),
    severity: text("severity").notNull(),
    message: text("message").notNull(),
    details: jsonb("details").notNull().default(sql`'{}'::jsonb`),
    /** What raised it: `capture` (upload tags) or the evidence checker's version, e.g. `checks/1`. */
    source: text("source").notNull(),
    createdAt: created(),
    dismissedAt: ts("dismissed_at"),
    dismissedBy: uuid("dismissed_by").references(() => users.id, { onDelete: "restrict" }),
    dismissReason: text("dismiss_reason"),
  },
  (t) => [
    uniqueIndex("evidence_flags_evidence_code_idx").on(t.evidenceId, t.code),
    check("evidence_flags_code_check", sql.raw(`code IN (${EVIDENCE_FLAG_CODES.map((c) => `'${c}'`).join(", ")})`)),
    check(
      "evidence_flags_severity_check",
      sql.raw(`severity IN (${EVIDENCE_FLAG_SEVERITIES.map((c) => `'${c}'`).join(", ")})`),
    ),
    check(
      "evidence_flags_dismissal_check",
      sql`(${t.dismissedAt} IS NULL) = (${t.dismissedBy} IS NULL) AND (${t.dismissedAt} IS NULL) = (${t.dismissReason} IS NULL)`,
    ),
  ],
);

/**
 * The background checks' result for one evidence file (one row per file, replaced by a re-check): its status, the
 * checker's version, the fields read from a document, and what other files are compared against — the photo's
 * perceptual hash and the document's normalised number.
 */
export const evidenceChecks = pgTable(
  "evidence_checks",
  {
    evidenceId: uuid("evidence_id")
      .primaryKey()
      .references(() => evidence.id, { onDelete: "cascade" }),
    status: text("status").notNull().default("pending"),
    /** Null while the first run is pending. */
    checkerVersion: text("checker_version"),
    extracted: jsonb("extracted").$type<ExtractedDocumentDto>(),
    /** 16 hex digits (64 bits): compared by Hamming distance. */
    photoHash: text("photo_hash"),
    /** `kind:NUMBER` with separators dropped (fields.ts `documentKey`). */
    documentKey: text("document_key"),
    /** Why the last run failed (for operators; never shown to members). */
    error: text("error"),
    checkedAt: ts("checked_at"),
    createdAt: created(),
  },
  (t) => [
    index("evidence_checks_document_key_idx").on(t.documentKey),
    index("evidence_checks_photo_hash_idx").on(t.photoHash),
    check(
      "evidence_checks_status_check",
      sql.raw(`status IN (${EVIDENCE_CHECK_STATUSES.map((c) => `'${c}'`).join(", ")})`),
    ),
    check("evidence_checks_photo_hash_check", sql`${t.photoHash} ~ '^[0-9a-f]{16}$'`),
  ],
);

/**
 * Append-only, hash-chained record. `hash = sha256(prevHash + canonical content)`; a trigger (see the
 * custom migration) rejects UPDATE and DELETE.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    createdAt: ts("created_at").notNull(),
    actorId: uuid("actor_id"),
    action: text("action").notNull(),
    entityType: text("entity_type").notNull(),
    entityId: text("entity_id").notNull(),
    projectId: uuid("project_id"),
    before: jsonb("before"),
    after: jsonb("after"),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [
    index("audit_events_entity_idx").on(t.entityType, t.entityId, t.id),
    index("audit_events_project_idx").on(t.projectId, t.id),
  ],
);

export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Monotonic id used as the SSE event id, so a reconnecting client can ask for what it missed. */
    seq: bigserial("seq", { mode: "number" }).notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    message: text("message").notNull(),
    category: text("category").notNull(),
    read: boolean("read").notNull().default(false),
    link: text("link"),
    /** What the event concerns, so open pages can refresh it: { projectId?, milestoneId? }. */
    subject: jsonb("subject"),
    createdAt: created(),
  },
  (t) => [
    uniqueIndex("notifications_seq_key").on(t.seq),
    index("notifications_user_seq_idx").on(t.userId, t.seq),
    index("notifications_unread_idx").on(t.userId).where(sql`${t.read} = false`),
  ],
);

export const publicRequests = pgTable(
  "public_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").notNull(),
    email: text("email").notNull(),
    name: text("name"),
    organization: text("organization"),
    message: text("message"),
    source: text("source"),
    ip: text("ip"),
    createdAt: created(),
  },
  (t) => [
    index("public_requests_created_idx").on(t.createdAt),
    check("public_requests_kind_check", sql`${t.kind} in ('demo', 'early_access', 'verifier_partner')`),
  ],
);

export const outbox = pgTable(
  "outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    topic: text("topic").notNull(),
    payload: jsonb("payload").notNull(),
    status: text("status", { enum: ["pending", "done", "dead"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    runAt: ts("run_at").notNull().defaultNow(),
    lockedUntil: ts("locked_until"),
    /** Set by each claim: only the holder of the current token may settle the message. */
    leaseToken: uuid("lease_token"),
    lastError: text("last_error"),
    createdAt: created(),
    doneAt: ts("done_at"),
  },
  (t) => [
    index("outbox_pending_topic_idx").on(t.topic, t.runAt).where(sql`${t.status} = 'pending'`),
    index("outbox_topic_idx").on(t.topic, t.createdAt),
  ],
);

export const auditCheckpoints = pgTable(
  "audit_checkpoints",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    createdAt: created(),
    lastEventId: bigint("last_event_id", { mode: "number" }).notNull(),
    headHash: text("head_hash").notNull(),
    eventCount: bigint("event_count", { mode: "number" }).notNull(),
    keyId: text("key_id").notNull(),
    signature: text("signature").notNull(),
  },
  (t) => [uniqueIndex("audit_checkpoints_event_key").on(t.lastEventId)],
);

export const webhookEndpoints = pgTable("webhook_endpoints", {
  id: uuid("id").primaryKey().defaultRandom(),
  url: text("url").notNull(),
  description: text("description"),
  events: text("events").array().notNull(),
  enabled: boolean("enabled").notNull().default(true),
  /** AES-256-GCM with WEBHOOK_SECRETS_KEY (see services/webhooks/secrets.ts). */
  secretEnc: text("secret_enc").notNull(),
  previousSecretEnc: text("previous_secret_enc"),
  previousSecretExpiresAt: ts("previous_secret_expires_at"),
  disabledReason: text("disabled_reason"),
  createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
  createdAt: created(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

/** One event for one endpoint; its id is the `webhook-id` every attempt and replay carries. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    payload: jsonb("payload").notNull(),
    status: text("status", { enum: ["pending", "delivered", "failed"] })
      .notNull()
      .default("pending"),
    /** The outbox message delivering it now (a replay enqueues a new one). */
    outboxId: uuid("outbox_id"),
    createdAt: created(),
    deliveredAt: ts("delivered_at"),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_endpoint_event_key").on(t.endpointId, t.eventId),
    index("webhook_deliveries_endpoint_created_idx").on(t.endpointId, t.createdAt),
    check("webhook_deliveries_status_check", sql`${t.status} IN ('pending', 'delivered', 'failed')`),
  ],
);

export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    deliveryId: uuid("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    at: ts("at").notNull(),
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms").notNull(),
    response: text("response").notNull(),
    error: text("error"),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.id)],
);

/** A release certificate's facts as first issued; later downloads and checks compare against them. */
export const releaseCertificates = pgTable(
  "release_certificates",
  {
    releaseId: uuid("release_id")
      .primaryKey()
      .references(() => disbursements.id, { onDelete: "restrict" }),
    facts: jsonb("facts").notNull(),
    fingerprint: text("fingerprint").notNull(),
    issuedAt: ts("issued_at").notNull().defaultNow(),
  },
  (t) => [check("release_certificates_fingerprint_check", sql`${t.fingerprint} ~ '^[0-9a-f]{64}$'`)],
);

/** An admin's invitation to join with a role; the link's token is stored as its SHA-256 only. */
export const invitations = pgTable(
  "invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    role: text("role").notNull(),
    organization: text("organization"),
    projectIds: uuid("project_ids").array().notNull().default(sql`'{}'::uuid[]`),
    tokenHash: text("token_hash").notNull(),
    invitedBy: uuid("invited_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: created(),
    sentAt: ts("sent_at").notNull().defaultNow(),
    expiresAt: ts("expires_at").notNull(),
    acceptedAt: ts("accepted_at"),
    acceptedUserId: uuid("accepted_user_id").references(() => users.id, { onDelete: "set null" }),
    revokedAt: ts("revoked_at"),
  },
  (t) => [
    uniqueIndex("invitations_token_key").on(t.tokenHash),
    uniqueIndex("invitations_open_email_key")
      .on(t.email)
      .where(sql`${t.acceptedAt} is null and ${t.revokedAt} is null`),
    check("invitations_role_check", sql`${t.role} in ('investor', 'project_owner', 'verifier', 'admin')`),
  ],
);

/** A single-use password reset link (30 minutes); the token is stored as its SHA-256 only. */
export const passwordResets = pgTable(
  "password_resets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdAt: created(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
  },
  (t) => [uniqueIndex("password_resets_token_key").on(t.tokenHash), index("password_resets_user_idx").on(t.userId)],
);

/** A single-use link that proves a new account's email address is its own (sent at sign-up). */
export const emailVerifications = pgTable(
  "email_verifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdAt: created(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
  },
  (t) => [
    uniqueIndex("email_verifications_token_key").on(t.tokenHash),
    index("email_verifications_user_idx").on(t.userId),
  ],
);

/** How a person wants email for one category of notification; no row means the category's default. */
export const emailPreferences = pgTable(
  "email_preferences",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    category: text("category").notNull(),
    mode: text("mode").notNull(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "email_preferences_pk", columns: [t.userId, t.category] }),
    check(
      "email_preferences_category_check",
      sql`${t.category} in ('verification', 'releases', 'projects', 'account')`,
    ),
    check("email_preferences_mode_check", sql`${t.mode} in ('instant', 'digest', 'off')`),
  ],
);

/** The last daily digest each person was sent: notifications after throughSeq go into the next one. */
export const emailDigests = pgTable("email_digests", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  throughSeq: bigint("through_seq", { mode: "number" }).notNull(),
  sentAt: ts("sent_at").notNull(),
});

/** A person's picture (base64), served by Tranche itself: the content security policy allows no other host. */
export const userAvatars = pgTable("user_avatars", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  contentType: text("content_type").notNull(),
  data: text("data").notNull(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

/** The figures a project's rollup holds, and the platform's totals sum. */
const rollupFigures = () => ({
  released: money("released").notNull(),
  settled: money("settled").notNull(),
  pendingCapital: money("pending_capital").notNull(),
  milestonesTotal: integer("milestones_total").notNull(),
  milestonesPending: integer("milestones_pending").notNull(),
  milestonesInVerification: integer("milestones_in_verification").notNull(),
  milestonesVerified: integer("milestones_verified").notNull(),
  milestonesRejected: integer("milestones_rejected").notNull(),
  milestonesDelayed: integer("milestones_delayed").notNull(),
});

/**
 * One row per project, kept equal to the view project_rollup_expected by refreshProjectRollup in the transaction
 * of every change to the project's milestones or releases (services/projects/rollup.ts). Dashboards and lists
 * read these figures instead of aggregating milestones and releases on every request.
 */
export const projectRollups = pgTable(
  "project_rollups",
  {
    projectId: uuid("project_id")
      .primaryKey()
      .references(() => projects.id, { onDelete: "cascade" }),
    currency: text("currency").notNull(),
    ...rollupFigures(),
    nextDueDate: date("next_due_date", { mode: "string" }),
    lastActivityAt: ts("last_activity_at").notNull(),
    /** Verifier memberships, kept by a trigger on project_members (migration 0024). */
    verifiers: integer("verifiers").notNull().default(0),
    /** The earliest due date among its milestones awaiting a decision (migration 0025). */
    nextOpenDueDate: date("next_open_due_date", { mode: "string" }),
  },
  (t) => [
    index("project_rollups_next_due_idx").on(t.nextDueDate, t.projectId),
    index("project_rollups_activity_idx").on(t.lastActivityAt, t.projectId),
  ],
);

/**
 * Every project's rollup summed per currency, and how many have no verifier (the admin's dashboard), kept by
 * triggers on project_rollups (migration 0024): no code writes it. Since migration 0043 these are base rows: the
 * totals are them plus platform_rollup_deltas (the view platform_totals).
 */
export const platformRollups = pgTable("platform_rollups", {
  currency: text("currency").primaryKey(),
  projects: integer("projects").notNull(),
  ...rollupFigures(),
  projectsWithoutVerifier: integer("projects_without_verifier").notNull().default(0),
});

/**
 * What the trigger on project_rollups appends for each change of a summed figure (migration 0043): signed deltas,
 * which readers add to platform_rollups (the view platform_totals) and each process folds into it every minute.
 */
export const platformRollupDeltas = pgTable("platform_rollup_deltas", {
  currency: text("currency").notNull(),
  projects: integer("projects").notNull(),
  ...rollupFigures(),
  projectsWithoutVerifier: integer("projects_without_verifier").notNull(),
});

/** A person's passkeys (WebAuthn credentials); a revoked one is kept, and refused. */
export const passkeys = pgTable(
  "passkeys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** base64url, as the browser reports it. */
    credentialId: text("credential_id").notNull(),
    /** The COSE public key, base64url. */
    publicKey: text("public_key").notNull(),
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    transports: text("transports").array().notNull().default(sql`'{}'::text[]`),
    deviceName: text("device_name").notNull(),
    deviceType: text("device_type", { enum: ["singleDevice", "multiDevice"] }).notNull(),
    backedUp: boolean("backed_up").notNull().default(false),
    createdAt: created(),
    lastUsedAt: ts("last_used_at"),
    revokedAt: ts("revoked_at"),
  },
  (t) => [
    uniqueIndex("passkeys_credential_key").on(t.credentialId),
    index("passkeys_user_idx").on(t.userId),
    check("passkeys_device_type_check", sql`${t.deviceType} in ('singleDevice', 'multiDevice')`),
  ],
);

/** WebAuthn challenges: single-use (deleted as they are used), five minutes. */
export const webauthnChallenges = pgTable(
  "webauthn_challenges",
  {
    challenge: text("challenge").primaryKey(),
    purpose: text("purpose", { enum: ["register", "sign_in", "second_factor"] }).notNull(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    expiresAt: ts("expires_at").notNull(),
    createdAt: created(),
  },
  (t) => [
    index("webauthn_challenges_expires_idx").on(t.expiresAt),
    check("webauthn_challenges_purpose_check", sql`${t.purpose} in ('register', 'sign_in', 'second_factor')`),
    check("webauthn_challenges_user_check", sql`(${t.purpose} = 'sign_in') = (${t.userId} is null)`),
  ],
);

/** Browsers that enabled push: one row per push service endpoint. */
export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /**
     * The signed-in session that enabled it: the subscription ends with that session (signed out, signed out by
     * another, a password changed, expired), so a browser no longer signed in stops receiving notifications.
     */
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull(),
    /** The browser's P-256 public key and auth secret (base64url) that each message is encrypted for (RFC 8291). */
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    /** Browser and system read from the user agent, e.g. "Chrome on Android". */
    device: text("device").notNull(),
    createdAt: created(),
    lastSentAt: ts("last_sent_at"),
  },
  (t) => [
    uniqueIndex("push_subscriptions_endpoint_key").on(t.endpoint),
    index("push_subscriptions_user_idx").on(t.userId),
    index("push_subscriptions_session_idx").on(t.sessionId),
  ],
);

/** The one VAPID key pair (row id 1), the private half sealed with the secret box. */
export const vapidKeys = pgTable(
  "vapid_keys",
  {
    id: integer("id").primaryKey().default(1),
    publicKey: text("public_key").notNull(),
    privateKeySealed: text("private_key_sealed").notNull(),
    createdAt: created(),
  },
  (t) => [check("vapid_keys_single_check", sql`${t.id} = 1`)],
);

/** Milestones whose verifiers were told they are due soon, once per due date. */
export const milestoneDueSoonNotices = pgTable(
  "milestone_due_soon_notices",
  {
    milestoneId: uuid("milestone_id")
      .notNull()
      .references(() => milestones.id, { onDelete: "cascade" }),
    dueDate: date("due_date", { mode: "string" }).notNull(),
    notifiedAt: ts("notified_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "milestone_due_soon_notices_pk", columns: [t.milestoneId, t.dueDate] })],
);
