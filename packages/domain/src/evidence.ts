// What the platform learned about an evidence file: where and when it was captured (the field app's tags) and the
// flags raised about it — by the capture tags at upload and by the background evidence checks. One list of flags
// for both, each explaining itself in a sentence.
import { z } from "zod";

export const EVIDENCE_FLAG_CODES = [
  "reused_photo",
  "reused_file",
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

/**
 * Whose device captured a file: the uploader's role on the project when they uploaded it. Only a verifier's capture
 * is a check made on site; an owner's tags are what their own device states.
 */
export const CAPTURED_BY = ["verifier", "owner"] as const;
export type CapturedBy = (typeof CAPTURED_BY)[number];

const CAPTURED_BY_WORDS: Record<CapturedBy, string> = {
  verifier: "Captured by the verifier's device",
  owner: "Position stated by the project owner's device (not a verifier's capture),",
};

/**
 * How a capture tag opens, on screen and on the certificate, so an owner's is never read as a verifier's. A
 * certificate issued before captures said whose they were has no `by`: it keeps the plain "Captured".
 */
export const capturedByWords = (by: CapturedBy | undefined) => (by ? CAPTURED_BY_WORDS[by] : "Captured");

/** Where and when the device that captured a file says it was, and how far that is from the project's site. */
export const evidenceCaptureSchema = z.strictObject({
  /** Whose device it was (see CAPTURED_BY). */
  by: z.enum(CAPTURED_BY),
  latitude: z.number(),
  longitude: z.number(),
  /** The device's stated accuracy, in metres. */
  accuracy: z.number().nullable(),
  capturedAt: z.string(),
  /** Null when the project has no site coordinates. */
  distanceToSiteM: z.number().nullable(),
});
export type EvidenceCaptureDto = z.infer<typeof evidenceCaptureSchema>;

// ---------- what an evidence file is served as ----------

/**
 * Content types a browser shows on its own without running anything: a document opened with one of these (the
 * download, or a kept file the field app opens from the device) can never act as a page of Tranche.
 */
const VIEWABLE_TYPES = new Set([
  "application/pdf",
  "text/plain",
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/webp",
  "image/avif",
  "image/bmp",
  "image/heic",
  "image/heif",
  "image/tiff",
]);
/** Further types kept as declared: the browser saves them (office documents, archives) or plays them. */
const SAVED_TYPES = new Set([
  "text/csv",
  "application/zip",
  "application/msword",
  "application/vnd.ms-excel",
  "application/vnd.ms-powerpoint",
  "application/rtf",
]);
const SAVED_PREFIXES = ["application/vnd.openxmlformats-officedocument.", "application/vnd.oasis.opendocument."];

/**
 * The content type an evidence file is stored and served with. Uploaders declare any type they like; only the
 * types above are believed. HTML, SVG, XML, JavaScript, CSS and every other type a browser could render as a page,
 * or load as a script or a style sheet from Tranche's own origin, become `application/octet-stream` (bytes to save),
 * so a project owner's file can neither run in a verifier's session nor serve as a script for one.
 */
export function evidenceContentType(declared: string | null | undefined): string {
  const type = (declared ?? "").split(";")[0].trim().toLowerCase();
  if (VIEWABLE_TYPES.has(type) || SAVED_TYPES.has(type)) return type;
  if (SAVED_PREFIXES.some((prefix) => type.startsWith(prefix))) return type;
  if (/^(video|audio)\/[\w.+-]+$/.test(type)) return type;
  return "application/octet-stream";
}

/** Whether a file of this (served) type may be opened in a browser tab; anything else is saved under its name. */
export const opensInBrowser = (contentType: string) =>
  VIEWABLE_TYPES.has(contentType) || /^(video|audio)\//.test(contentType);

/**
 * Characters that change how a name reads without being seen: C0 and C1 controls (\p{Cc}), the bidirectional marks,
 * overrides, embeddings and isolates ("invoice\u202Efdp.exe" reads as "invoiceexe.pdf"), the zero-width space, the
 * word joiner and invisible operators, the BOM, and lone surrogates (half a character). The zero-width joiner and
 * non-joiner (U+200C, U+200D) stay: scripts and emoji need them.
 */
const INVISIBLE_IN_NAMES = /\p{Cc}|\p{Cs}|[\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/gu;

/** How long an evidence file's name may be, in characters (code points). */
export const EVIDENCE_NAME_MAX = 255;

/**
 * An uploaded file's name as it is kept and shown: its last path segment, without invisible or direction-changing
 * characters, cut at whole characters to 255; "file" when nothing is left. Never used as a path.
 */
export function cleanEvidenceName(name: string | null | undefined): string {
  const base = (name ?? "").split(/[\\/]/).pop() ?? "";
  const cleaned = base.replace(INVISIBLE_IN_NAMES, "").trim();
  return [...cleaned].slice(0, EVIDENCE_NAME_MAX).join("").trim() || "file";
}
