// Verification: the dialog's view of a milestone, the release policy's quorum, disputes, the verifier's queue,
// reports and verifiers as the API answers them.
import { z } from "zod";
import { CHECKLIST_ITEMS, MILESTONE_STATUSES } from "../constants";
import { evidenceFlagSummarySchema } from "../evidence";
import { amount, currency, day, id, instant, personRefSchema, shape } from "./common";
import { checklistStateSchema } from "./projects";

/** One decision on a milestone under its release policy. */
export const verificationDecisionSchema = shape({
  id,
  round: z.number().int(),
  kind: z.enum(["approve", "reject", "countersign"]),
  userId: id,
  userName: z.string(),
  /** The verified organization in force when the decision was made (what release rules compare). */
  organization: z.string().nullable(),
  /** Percent of the open amount agreed (100 unless a partial approval). */
  share: z.number(),
  /** For an approval: what its share of the then open amount came to, fixed when it was made (null otherwise). */
  amount: amount.nullable(),
  comment: z.string().nullable(),
  policyVersion: z.number().int(),
  decidedAt: instant,
  /** The round was left from a rejection: this decision no longer counts. */
  voidedAt: instant.nullable(),
  /**
   * What voided it: the owner resubmitted, the owner marked the milestone delayed, or an admin reassigned the
   * disputed rejection to another verifier (null when not void, or voided before reasons were kept).
   */
  voidReason: z.enum(["resubmit", "delay", "reassign", "policy", "evidence"]).nullable(),
});
export type VerificationDecisionDto = z.infer<typeof verificationDecisionSchema>;

/** Where a milestone stands against its project's release policy. */
export const quorumSchema = shape({
  policyVersion: z.number().int(),
  statement: z.string(),
  required: z.number().int(),
  /** Approvals that count in the current round. */
  approvals: z.number().int(),
  assignedVerifiers: z.number().int(),
  countersignRequired: z.boolean(),
  awaitingCountersign: z.boolean(),
  /** Capital still open on the milestone (its amount less earlier partial releases). */
  openAmount: amount,
  /**
   * What the approvals that count would release now: the lowest share they agreed to of what is open, and never more
   * than any of them recorded. What an investor's countersignature releases.
   */
  releaseAmount: amount,
  decisions: z.array(verificationDecisionSchema),
});
export type QuorumDto = z.infer<typeof quorumSchema>;

export const disputeDtoSchema = shape({
  id,
  statement: z.string(),
  openedByName: z.string(),
  openedAt: instant,
  verifierId: id.nullable(),
  verifierName: z.string().nullable(),
  assignedAt: instant.nullable(),
  outcome: z.enum(["approved", "rejected"]).nullable(),
  closedAt: instant.nullable(),
});
export type DisputeDto = z.infer<typeof disputeDtoSchema>;

/** The verifier's note per checklist item (what was seen on site); items without one are absent. */
export const checklistNotesDtoSchema = shape(
  Object.fromEntries(CHECKLIST_ITEMS.map((item) => [item.key, z.string().optional()])) as Record<
    (typeof CHECKLIST_ITEMS)[number]["key"],
    z.ZodOptional<z.ZodString>
  >,
);
export type ChecklistNotes = z.infer<typeof checklistNotesDtoSchema>;

/** The verification dialog's view of one milestone, with what the caller may do to it. */
export const verificationSchema = shape({
  milestoneId: id,
  projectId: id,
  projectName: z.string(),
  currency,
  title: z.string(),
  description: z.string(),
  dueDate: day,
  capitalAmount: amount,
  status: z.enum(MILESTONE_STATUSES),
  verifierId: id.nullable(),
  verifierName: z.string().nullable(),
  startedAt: instant.nullable(),
  verificationDate: instant.nullable(),
  comments: z.string().nullable(),
  checklist: checklistStateSchema,
  /** The verifier's note per checklist item (what was seen on site); items without one are absent. */
  checklistNotes: checklistNotesDtoSchema,
  /** The verification round: bumped by a resubmission and a partial release. Decisions name the round they saw. */
  round: z.number().int(),
  /**
   * Counts the changes to the milestone's evidence: a decision sends the one it saw (`evidenceVersion`), and one made
   * on other evidence is refused as stale.
   */
  evidenceVersion: z.number().int(),
  progress: z.number(),
  /** The report of the current decision, once submitted (submitting again edits it). */
  report: shape({ id, createdAt: instant, updatedAt: instant }).nullable(),
  quorum: quorumSchema,
  /** The latest dispute of a rejection, open or closed. */
  dispute: disputeDtoSchema.nullable(),
  permissions: shape({
    canStart: z.boolean(),
    canDecide: z.boolean(),
    /** An investor member may countersign once the verifiers' quorum is complete. */
    canCountersign: z.boolean(),
    /** The owner may dispute a rejection (once per rejection). */
    canDispute: z.boolean(),
    /** An admin assigns a different verifier to an open dispute. */
    canAssignDispute: z.boolean(),
    canReport: z.boolean(),
    canUpload: z.boolean(),
    canResubmit: z.boolean(),
    canDelay: z.boolean(),
    /** Why an action the caller's role allows is refused in the milestone's present state. */
    reasons: shape({
      decide: z.string().optional(),
      upload: z.string().optional(),
      countersign: z.string().optional(),
    }),
  }),
}).meta({ id: "Verification" });
export type VerificationDto = z.infer<typeof verificationSchema>;

export const verifierQueueItemSchema = shape({
  milestoneId: id,
  projectId: id,
  projectName: z.string(),
  title: z.string(),
  description: z.string(),
  dueDate: day,
  capitalAmount: amount,
  /** What is still open: the amount less releases already made of it (a partly released milestone). */
  openAmount: amount,
  currency,
  status: z.enum(MILESTONE_STATUSES),
  verificationDate: instant.nullable(),
  progress: z.number(),
}).meta({ id: "VerifierQueueItem" });
export type VerifierQueueItemDto = z.infer<typeof verifierQueueItemSchema>;

/**
 * The signed-in verifier's queue, on live data: the first page of what is pending (earliest due first; the rest from
 * GET /api/verifications/pending with `pendingNextCursor`), the most recent decisions, and what is delayed.
 */
export const verifierQueueSchema = shape({
  counts: shape({ assignedProjects: z.number().int(), pending: z.number().int(), completed: z.number().int() }),
  pending: z.array(verifierQueueItemSchema),
  pendingNextCursor: z.string().nullable(),
  completed: z.array(verifierQueueItemSchema),
  delayed: z.array(verifierQueueItemSchema),
});
export type VerifierQueueDto = z.infer<typeof verifierQueueSchema>;

/** A page of the verifier's pending or completed milestones, with how many there are in all. */
export const verifierQueuePageSchema = shape({
  items: z.array(verifierQueueItemSchema),
  nextCursor: z.string().nullable(),
  total: z.number().int(),
});
export type VerifierQueuePageDto = z.infer<typeof verifierQueuePageSchema>;

export const verificationReportSchema = shape({
  id,
  milestoneId: id,
  milestoneTitle: z.string(),
  projectId: id,
  projectName: z.string(),
  status: z.enum(MILESTONE_STATUSES),
  checklist: checklistStateSchema,
  comments: z.string().nullable(),
  evidence: z.array(
    shape({
      id,
      originalName: z.string(),
      sha256: z.string(),
      size: z.number().int(),
      /** The file's flags when the report was frozen (absent when it had none, and in reports made before checks). */
      flags: z.array(evidenceFlagSummarySchema).optional(),
    }),
  ),
  submittedBy: personRefSchema,
  createdAt: instant,
  /** Later than createdAt when the report was submitted again (it is edited, never duplicated). */
  updatedAt: instant,
}).meta({ id: "VerificationReport" });
export type VerificationReportDto = z.infer<typeof verificationReportSchema>;

/** How fast a verifier decides: from the start of a verification to its approval or rejection. */
export const verifierTurnaroundSchema = shape({
  /** Over the verifier's latest (at most 100) decided verifications; null before the first. */
  medianHours: z.number().nullable(),
  p90Hours: z.number().nullable(),
  decided: z.number().int(),
  /** Verifications the verifier started and has not decided. */
  open: z.number().int(),
  /** Open longer than `slaDays`. */
  overdue: z.number().int(),
  slaDays: z.number(),
});
export type VerifierTurnaroundDto = z.infer<typeof verifierTurnaroundSchema>;

export const verifierSchema = shape({
  id,
  name: z.string(),
  email: z.string(),
  organization: z.string().nullable(),
  expertise: z.array(z.string()),
  rating: z.number().nullable(),
  completedVerifications: z.number().int(),
  projectCount: z.number().int(),
  turnaround: verifierTurnaroundSchema,
}).meta({ id: "Verifier" });
export type VerifierDto = z.infer<typeof verifierSchema>;
