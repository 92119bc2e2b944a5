// What the platform learned about an evidence file: where and when it was captured (the field app's tags) and the
// flags raised about it — by the capture tags at upload and by the background evidence checks. One list of flags
// for both, each explaining itself in a sentence.
import { z } from "zod";

export const EVIDENCE_FLAG_CODES = [
  "reused_photo",
  "duplicate_document_number",
  "total_mismatch",
  "outside_window",
  "far_from_site",
  "edited_metadata",
  "stripped_metadata",
  "pdf_incremental_update",
] as const;
export type EvidenceFlagCode = (typeof EVIDENCE_FLAG_CODES)[number];

/** `high` asks the verifier to look before deciding; `medium` is worth a look; `low` is context. */
export const EVIDENCE_FLAG_SEVERITIES = ["low", "medium", "high"] as const;
export type EvidenceFlagSeverity = (typeof EVIDENCE_FLAG_SEVERITIES)[number];

export const evidenceFlagSchema = z.strictObject({
  id: z.string(),
  code: z.enum(EVIDENCE_FLAG_CODES),
  severity: z.enum(EVIDENCE_FLAG_SEVERITIES),
  /** One sentence a verifier understands without knowing the checker. */
  message: z.string(),
  dismissed: z.boolean(),
  /** Who dismissed it, when and why; null while it stands. */
  dismissal: z
    .strictObject({ reason: z.string(), by: z.strictObject({ id: z.string(), name: z.string() }), at: z.string() })
    .nullable(),
});
export type EvidenceFlagDto = z.infer<typeof evidenceFlagSchema>;

/** A flag as a report, a certificate or the checks' answer state it: what, how serious, why, and whether set aside. */
export const evidenceFlagSummarySchema = z.strictObject({
  code: z.enum(EVIDENCE_FLAG_CODES),
  severity: z.enum(EVIDENCE_FLAG_SEVERITIES),
  message: z.string(),
  dismissed: z.boolean(),
});
export type EvidenceFlagSummary = z.infer<typeof evidenceFlagSummarySchema>;

/** Where and when the device that captured a file says it was, and how far that is from the project's site. */
export const evidenceCaptureSchema = z.strictObject({
  latitude: z.number(),
  longitude: z.number(),
  /** The device's stated accuracy, in metres. */
  accuracy: z.number().nullable(),
  capturedAt: z.string(),
  /** Null when the project has no site coordinates. */
  distanceToSiteM: z.number().nullable(),
});
export type EvidenceCaptureDto = z.infer<typeof evidenceCaptureSchema>;
