// What the platform learned about an evidence file: where and when it was captured (the field app's tags) and the
// flags raised about it — by the capture tags at upload and by the background evidence checks. One list of flags
// for both, each explaining itself in a sentence.

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

export interface EvidenceFlagDto {
  id: string;
  code: EvidenceFlagCode;
  severity: EvidenceFlagSeverity;
  /** One sentence a verifier understands without knowing the checker. */
  message: string;
  dismissed: boolean;
  /** Who dismissed it, when and why; null while it stands. */
  dismissal: { reason: string; by: { id: string; name: string }; at: string } | null;
}

/** Where and when the device that captured a file says it was, and how far that is from the project's site. */
export interface EvidenceCaptureDto {
  latitude: number;
  longitude: number;
  /** The device's stated accuracy, in metres. */
  accuracy: number | null;
  capturedAt: string;
  /** Null when the project has no site coordinates. */
  distanceToSiteM: number | null;
}
