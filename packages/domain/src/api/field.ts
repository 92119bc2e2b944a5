// The verifier's field view as the API answers it: open assignments by urgency, and what a site visit needs.
import { z } from "zod";
import { MILESTONE_STATUSES } from "../constants";
import { FIELD_URGENCIES } from "../field";
import { amount, currency, day, id, instant, shape } from "./common";
import { evidenceSchema } from "./projects";
import { verificationSchema } from "./verification";

/** One open assignment of the signed-in verifier (GET /api/field/assignments). */
export const fieldAssignmentSchema = shape({
  milestoneId: id,
  title: z.string(),
  projectId: id,
  projectName: z.string(),
  location: z.string(),
  /** The project's site, when its owner gave its coordinates. */
  site: shape({ latitude: z.number(), longitude: z.number() }).nullable(),
  dueDate: day,
  status: z.enum(MILESTONE_STATUSES),
  /** The milestone's verification round: a decision is made against it. */
  round: z.number().int(),
  urgency: z.enum(FIELD_URGENCIES),
  capitalAmount: amount,
  openAmount: amount,
  currency,
  evidenceCount: z.number().int(),
  /** Checklist items ticked, of six. */
  checked: z.number().int(),
}).meta({ id: "FieldAssignment" });
export type FieldAssignmentDto = z.infer<typeof fieldAssignmentSchema>;

/** Everything a site visit needs, in one answer (GET /api/field/assignments/:id), kept on the device offline. */
export const fieldVisitSchema = shape({
  assignment: fieldAssignmentSchema,
  verification: verificationSchema,
  evidence: z.array(evidenceSchema),
  /** The site radius beyond which a capture is flagged (EVIDENCE_SITE_RADIUS_M), to warn before uploading. */
  siteRadiusM: z.number(),
  fetchedAt: instant,
});
export type FieldVisitDto = z.infer<typeof fieldVisitSchema>;
