// Projects, milestones, evidence, releases and release policies as the API answers them (camelCase, never raw
// rows; money as JSON numbers).
import { z } from "zod";
import {
  API_SCOPES,
  CHECKLIST_ITEMS,
  MEMBER_ROLES,
  MILESTONE_STATUSES,
  PROJECT_STATUSES,
  RELEASE_STATUSES,
} from "../constants";
import { evidenceCaptureSchema, evidenceFlagSchema } from "../evidence";
import { releaseRuleSchema } from "../release-policy";
import { amount, currency, day, id, instant, personRefSchema, role, shape } from "./common";

const EXAMPLE_ID = "0b9e4c2a-5d7f-4e1b-9a3c-6f8d2e4b7a10";

export const checklistStateSchema = shape(
  Object.fromEntries(CHECKLIST_ITEMS.map((item) => [item.key, z.boolean()])) as Record<
    (typeof CHECKLIST_ITEMS)[number]["key"],
    z.ZodBoolean
  >,
);

export const userSchema = shape({
  id,
  name: z.string(),
  email: z.string(),
  role: role.nullable(),
  organization: z.string().nullable(),
  avatar: z.string().nullable(),
  /** When the address was confirmed (the emailed sign-up link used, or an invitation accepted); null: not yet. */
  emailVerifiedAt: instant.nullable(),
}).meta({
  id: "User",
  example: {
    id: EXAMPLE_ID,
    name: "Sarah Chen",
    email: "investor@tranche.app",
    role: "investor",
    organization: "Horizon Capital",
    avatar: null,
    emailVerifiedAt: "2026-05-04T09:00:00.000Z",
  },
});
export type UserDto = z.infer<typeof userSchema>;

export const userAdminSchema = userSchema
  .extend({
    createdAt: instant,
    /** The organization an admin verified: what release rules compare (the profile's `organization` is display). */
    verifiedOrganization: z.string().nullable(),
    organizationVerifiedAt: instant.nullable(),
    /**
     * The person has a second factor an admin could reset: an authenticator app that is on, unused recovery codes, or
     * a passkey not revoked.
     */
    hasSecondFactor: z.boolean(),
  })
  .meta({ id: "UserAdmin" });
export type UserAdminDto = z.infer<typeof userAdminSchema>;

/** What an admin's reset of a person's second factor removed (counts, never secrets). */
export const secondFactorResetSchema = shape({
  user: userAdminSchema,
  removed: shape({
    /** An authenticator app was on. */
    totp: z.boolean(),
    /** Recovery codes not yet used. */
    recoveryCodes: z.number().int(),
    /** Passkeys not revoked. */
    passkeys: z.number().int(),
  }),
  /** The person's sessions signed out (with the push subscriptions they had turned on). */
  sessionsEnded: z.number().int(),
}).meta({ id: "SecondFactorReset" });
export type SecondFactorResetDto = z.infer<typeof secondFactorResetSchema>;

const projectFigures = {
  totalCapital: amount,
  /** Released: instructed or settled. */
  disbursedCapital: amount,
  /** Confirmed paid by the custodian. */
  settledCapital: amount,
  remainingCapital: amount,
  currency,
};

export const projectSummarySchema = shape({
  id,
  name: z.string(),
  description: z.string(),
  status: z.enum(PROJECT_STATUSES),
  startDate: day.nullable(),
  endDate: day.nullable(),
  ...projectFigures,
  location: z.string(),
  /** The site's position in decimal degrees (both or neither): distances, directions and capture checks use it. */
  siteLatitude: z.number().nullable(),
  siteLongitude: z.number().nullable(),
  ownerId: id.nullable(),
  milestoneCount: z.number().int(),
  createdAt: instant,
  updatedAt: instant,
}).meta({
  id: "ProjectSummary",
  example: {
    id: EXAMPLE_ID,
    name: "Mojave Solar Farm Phase II",
    description: "A 120 MW photovoltaic plant with storage.",
    status: "verified",
    startDate: "2026-01-05",
    endDate: "2027-06-30",
    totalCapital: 12500000,
    disbursedCapital: 2500000,
    settledCapital: 2500000,
    remainingCapital: 10000000,
    currency: "USD",
    location: "Mojave Desert, California",
    siteLatitude: 35.0525,
    siteLongitude: -117.5967,
    ownerId: EXAMPLE_ID,
    milestoneCount: 5,
    createdAt: "2026-01-05T09:00:00.000Z",
    updatedAt: "2026-05-04T09:00:00.000Z",
  },
});
export type ProjectSummaryDto = z.infer<typeof projectSummarySchema>;

export const teamMemberSchema = shape({
  id,
  name: z.string(),
  email: z.string(),
  organization: z.string().nullable(),
  role: z.enum(MEMBER_ROLES),
  /** The project's lead investor (may set its release policy). */
  isLead: z.boolean(),
});
export type TeamMemberDto = z.infer<typeof teamMemberSchema>;

export const milestoneCountsSchema = shape({
  total: z.number().int(),
  verified: z.number().int(),
  /** pending plus in_verification */
  pending: z.number().int(),
  /** delayed and rejected combined */
  delayedOrRejected: z.number().int(),
});
export type MilestoneCounts = z.infer<typeof milestoneCountsSchema>;

export const milestoneSchema = shape({
  id,
  projectId: id,
  title: z.string(),
  description: z.string(),
  dueDate: day,
  capitalAmount: amount,
  status: z.enum(MILESTONE_STATUSES),
  verifierId: id.nullable(),
  verifierName: z.string().nullable(),
  verificationDate: instant.nullable(),
  comments: z.string().nullable(),
  checklist: checklistStateSchema,
  verificationProgress: z.number(),
  evidenceCount: z.number().int(),
  createdAt: instant,
  updatedAt: instant,
}).meta({
  id: "Milestone",
  example: {
    id: EXAMPLE_ID,
    projectId: EXAMPLE_ID,
    title: "Foundations poured",
    description: "All pile foundations poured and inspected.",
    dueDate: "2026-12-15",
    capitalAmount: 2500000,
    status: "pending",
    verifierId: null,
    verifierName: null,
    verificationDate: null,
    comments: null,
    checklist: Object.fromEntries(CHECKLIST_ITEMS.map((item) => [item.key, false])),
    verificationProgress: 0,
    evidenceCount: 2,
    createdAt: "2026-01-05T09:00:00.000Z",
    updatedAt: "2026-05-04T09:00:00.000Z",
  },
});
export type MilestoneDto = z.infer<typeof milestoneSchema>;

/** A milestone in a cross-project list (GET /api/milestones). */
export const milestoneListItemSchema = milestoneSchema
  .extend({ projectName: z.string(), projectCurrency: currency })
  .meta({ id: "MilestoneListItem" });
export type MilestoneListItemDto = z.infer<typeof milestoneListItemSchema>;

/** A release: what Tranche instructed the custodian to pay for one verified milestone, and what came back. */
export const releaseSchema = shape({
  id,
  instructionId: id,
  status: z.enum(RELEASE_STATUSES),
  amount,
  currency,
  milestone: shape({ id, name: z.string() }),
  project: shape({ id, name: z.string() }),
  approvedAt: instant,
  instructedAt: instant,
  settlement: shape({ reference: z.string(), settledAt: instant }).nullable(),
  failure: shape({ reason: z.string(), failedAt: instant }).nullable(),
  cancellation: shape({ reason: z.string(), cancelledAt: instant }).nullable(),
  updatedAt: instant,
  permissions: shape({ canReinstruct: z.boolean(), canCancel: z.boolean() }),
}).meta({
  id: "Release",
  example: {
    id: EXAMPLE_ID,
    instructionId: "5d2f8a41-7c3e-4b9a-8e61-2f0c9d4b7a35",
    status: "instructed",
    amount: 2500000,
    currency: "USD",
    milestone: { id: EXAMPLE_ID, name: "Foundations poured" },
    project: { id: EXAMPLE_ID, name: "Mojave Solar Farm Phase II" },
    approvedAt: "2026-12-14T15:02:11.000Z",
    instructedAt: "2026-12-14T15:02:11.000Z",
    settlement: null,
    failure: null,
    cancellation: null,
    updatedAt: "2026-12-14T15:02:11.000Z",
    permissions: { canReinstruct: false, canCancel: false },
  },
});
export type ReleaseDto = z.infer<typeof releaseSchema>;

export const projectDetailSchema = projectSummarySchema
  .extend({
    owner: teamMemberSchema.nullable(),
    investors: z.array(teamMemberSchema),
    verifiers: z.array(teamMemberSchema),
    milestones: z.array(milestoneSchema),
    counts: milestoneCountsSchema,
    /** The release policy in force, in one sentence. */
    releasePolicy: shape({ version: z.number().int(), statement: z.string() }),
    permissions: shape({
      canEdit: z.boolean(),
      canDelete: z.boolean(),
      canManageMilestones: z.boolean(),
      /** Only the owner moves a milestone's status from the edit form (each a transition the owner may make). */
      canSetMilestoneStatus: z.boolean(),
      canAssign: z.boolean(),
      /** Why an action the caller's role allows is refused in the project's present state. */
      reasons: shape({ delete: z.string().optional() }),
    }),
  })
  .meta({ id: "ProjectDetail" });
export type ProjectDetailDto = z.infer<typeof projectDetailSchema>;

export const milestoneDetailSchema = milestoneSchema
  .extend({
    projectName: z.string(),
    projectTotalCapital: amount,
    projectCurrency: currency,
    startedAt: instant.nullable(),
    disbursedAt: instant.nullable(),
    /** The latest release of the milestone. */
    release: z.union([releaseSchema, z.null()]),
    /** Every release of the milestone, oldest first: several after partial releases. */
    releases: z.array(releaseSchema),
    permissions: shape({
      canEdit: z.boolean(),
      canDelete: z.boolean(),
      canVerify: z.boolean(),
      canUpload: z.boolean(),
      canResubmit: z.boolean(),
      /** Whether the edit form offers the owner's status transitions. */
      canSetStatus: z.boolean(),
      /** Why an action the caller's role allows is refused in the milestone's present state. */
      reasons: shape({ edit: z.string().optional(), delete: z.string().optional(), upload: z.string().optional() }),
    }),
  })
  .meta({ id: "MilestoneDetail" });
export type MilestoneDetailDto = z.infer<typeof milestoneDetailSchema>;

export const evidenceSchema = shape({
  id,
  milestoneId: id,
  originalName: z.string(),
  size: z.number().int(),
  contentType: z.string(),
  sha256: z.string(),
  uploadedBy: personRefSchema,
  createdAt: instant,
  canRemove: z.boolean(),
  /** The capturing device's position and time, when the file was captured in the field; else null. */
  capture: evidenceCaptureSchema.nullable(),
  /** What the capture tags and the evidence checks raised about this file, dismissed ones included. */
  flags: z.array(evidenceFlagSchema),
}).meta({ id: "Evidence" });
export type EvidenceDto = z.infer<typeof evidenceSchema>;

export const releasePolicyVersionSchema = releaseRuleSchema.extend({
  /** One sentence, e.g. "2 of 3 assigned verifiers; investor countersign above $1,000,000". */
  statement: z.string(),
  /** null for the default rule (version 0), which nobody set. */
  createdAt: instant.nullable(),
  createdByName: z.string().nullable(),
});
export type ReleasePolicyVersionDto = z.infer<typeof releasePolicyVersionSchema>;

export const releasePolicyDtoSchema = shape({
  projectId: id,
  currency,
  assignedVerifiers: z.number().int(),
  current: releasePolicyVersionSchema,
  /** Every stored version, newest first (empty while the default rule applies). */
  history: z.array(releasePolicyVersionSchema),
  canEdit: z.boolean(),
}).meta({ id: "ReleasePolicy" });
export type ReleasePolicyDto = z.infer<typeof releasePolicyDtoSchema>;

export const apiTokenSchema = shape({
  id,
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.enum(API_SCOPES)),
  createdBy: personRefSchema.nullable(),
  /** The creator's name; null once their account was deleted. */
  createdByName: z.string().nullable(),
  /** A token acts only while its creator is an admin: false after a demotion or deletion (it answers 401). */
  ownerActive: z.boolean(),
  createdAt: instant,
  lastUsedAt: instant.nullable(),
  revokedAt: instant.nullable(),
}).meta({ id: "ApiToken" });
export type ApiTokenDto = z.infer<typeof apiTokenSchema>;

/** The answer to creating a token: the only time the token itself is shown. */
export const createdApiTokenSchema = apiTokenSchema.extend({ token: z.string() }).meta({ id: "CreatedApiToken" });
export type CreatedApiTokenDto = z.infer<typeof createdApiTokenSchema>;
