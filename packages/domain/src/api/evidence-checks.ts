// What the background evidence checks found about one file (GET /api/evidence/:id/checks), and the input of a
// flag's dismissal. The flags are the same list as each evidence item's `flags`.
import { z } from "zod";
import { evidenceFlagSummarySchema } from "../evidence";
import { shape } from "./common";

export const EVIDENCE_CHECK_STATUSES = ["pending", "done", "failed"] as const;
export type EvidenceCheckStatus = (typeof EVIDENCE_CHECK_STATUSES)[number];

export const DOCUMENT_KINDS = ["invoice", "certificate", "inspection_report", "other"] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** The fields read from a document (a text PDF, or a scan or photo of paper); each is null when not found. */
export const extractedDocumentSchema = shape({
  kind: z.enum(DOCUMENT_KINDS),
  issuer: z.string().nullable(),
  documentNumber: z.string().nullable(),
  /** ISO date, YYYY-MM-DD. */
  issueDate: z.string().nullable(),
  /** The document's total, in units of its currency (invoices). */
  total: z.number().nullable(),
  /** ISO 4217 code. */
  currency: z.string().nullable(),
}).meta({ id: "ExtractedDocument" });
export type ExtractedDocumentDto = z.infer<typeof extractedDocumentSchema>;

export const evidenceChecksSchema = shape({
  status: z.enum(EVIDENCE_CHECK_STATUSES),
  /** The checker that produced this result, e.g. `checks/1`; null while the first run is pending. */
  checkerVersion: z.string().nullable(),
  /** Null for a file that is not a document (a site photo) or whose text could not be read. */
  extracted: extractedDocumentSchema.nullable(),
  flags: z.array(evidenceFlagSummarySchema),
}).meta({
  id: "EvidenceChecks",
  example: {
    status: "done",
    checkerVersion: "checks/1",
    extracted: {
      kind: "invoice",
      issuer: "Acme Concrete Ltd",
      documentNumber: "INV-2026-0042",
      issueDate: "2026-03-14",
      total: 125400,
      currency: "USD",
    },
    flags: [
      {
        code: "total_mismatch",
        severity: "high",
        message: "This invoice's total, $125,400, is more than the milestone's amount of $120,000.",
        dismissed: false,
      },
    ],
  },
});
export type EvidenceChecksDto = z.infer<typeof evidenceChecksSchema>;

export const dismissFlagSchema = shape({
  /** Why the flag does not apply, in the verifier's words (kept in the audit log). */
  reason: z.string().trim().min(3, "Say why the flag does not apply (3 characters or more).").max(1000),
});
export type DismissFlagInput = z.infer<typeof dismissFlagSchema>;
