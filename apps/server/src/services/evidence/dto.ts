import { cleanEvidenceName, type EvidenceDto, type EvidenceFlagDto, evidenceContentType } from "@tranche/domain";
import { asc, eq, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { SessionUser } from "../../context";
import type { DbOrTx } from "../../db/client";
import { evidence, evidenceFlags, users } from "../../db/schema";

/** What decides whether a file may be removed: the milestone's state, and the file's uploader and place in time. */
export interface RemovableFacts {
  milestone: { status: string; verifierId: string | null };
  uploadedBy: string;
  /** A release of the milestone was approved after the file was uploaded: it was judged on this file. */
  beforeRelease: boolean;
  /** A decision on the milestone (an approval, a rejection, a countersignature) came after the file was uploaded. */
  beforeDecision: boolean;
}

/**
 * Why `actor` may not remove a file, or null when they may. Only its uploader removes a file, never once the milestone
 * is verified, nor one a decision was made on (a release approved, a rejection); while the milestone is in
 * verification, the files being checked stay as they are (its verifier may still take back their own upload).
 */
export function removalRefusal(actor: SessionUser, facts: RemovableFacts): string | null {
  const { milestone } = facts;
  if (facts.uploadedBy !== actor.id) return "Only the person who uploaded a file can remove it.";
  if (milestone.status === "verified") return "Milestone is verified; its evidence cannot be changed.";
  if (facts.beforeRelease) return "A release was approved on this file; it is kept with the milestone's record.";
  if (facts.beforeDecision) return "A decision was made on this file; it is kept with the milestone's record.";
  if (milestone.status === "in_verification" && milestone.verifierId !== actor.id) {
    return "Milestone is in verification; its evidence cannot be removed until the verifier decides.";
  }
  return null;
}

/**
 * Whether a release of the file's milestone was approved after the file was uploaded (SQL, with `evidence` in scope).
 * The outer columns are named in full: drizzle leaves a one-table select's columns unqualified, and inside the
 * subquery those would name the release's own.
 */
export const uploadedBeforeRelease = sql<boolean>`exists (select 1 from disbursements d
  where d.milestone_id = "evidence"."milestone_id" and d.created_at >= "evidence"."created_at")`;

/**
 * Whether a decision on the file's milestone came after the file was uploaded (SQL, as above): a rejection's
 * evidence stays too, so the record (and the decision's report) keeps what the decision was made on.
 */
export const uploadedBeforeDecision = sql<boolean>`exists (select 1 from verification_decisions d
  where d.milestone_id = "evidence"."milestone_id" and d.decided_at >= "evidence"."created_at")`;

/** A milestone's evidence, oldest first, with who uploaded it, its capture tags and flags, and whether the caller may remove it. */
export async function evidenceList(
  db: DbOrTx,
  actor: SessionUser,
  milestone: { id: string; status: string; verifierId: string | null },
): Promise<EvidenceDto[]> {
  const rows = await db
    .select({
      id: evidence.id,
      originalName: evidence.originalName,
      size: evidence.size,
      contentType: evidence.contentType,
      sha256: evidence.sha256,
      uploaderId: evidence.uploadedBy,
      uploaderName: users.name,
      uploadedAs: evidence.uploadedAs,
      createdAt: evidence.createdAt,
      latitude: evidence.captureLatitude,
      longitude: evidence.captureLongitude,
      accuracy: evidence.captureAccuracyM,
      capturedAt: evidence.capturedAt,
      distanceToSiteM: evidence.distanceToSiteM,
      beforeRelease: uploadedBeforeRelease,
      beforeDecision: uploadedBeforeDecision,
    })
    .from(evidence)
    .innerJoin(users, eq(users.id, evidence.uploadedBy))
    .where(eq(evidence.milestoneId, milestone.id))
    .orderBy(asc(evidence.createdAt), asc(evidence.originalName), asc(evidence.id));
  const flags = await flagsOf(
    db,
    rows.map((r) => r.id),
    actor,
  );
  return rows.map((r) => ({
    id: r.id,
    milestoneId: milestone.id,
    // Names kept before they were cleaned of invisible and direction-changing characters read as they are.
    originalName: cleanEvidenceName(r.originalName),
    size: r.size,
    contentType: evidenceContentType(r.contentType),
    sha256: r.sha256,
    uploadedBy: { id: r.uploaderId, name: r.uploaderName },
    createdAt: r.createdAt.toISOString(),
    canRemove:
      removalRefusal(actor, {
        milestone,
        uploadedBy: r.uploaderId,
        beforeRelease: r.beforeRelease,
        beforeDecision: r.beforeDecision,
      }) === null,
    capture:
      r.latitude !== null && r.longitude !== null && r.capturedAt !== null
        ? {
            by: r.uploadedAs,
            latitude: r.latitude,
            longitude: r.longitude,
            accuracy: r.accuracy,
            capturedAt: r.capturedAt.toISOString(),
            distanceToSiteM: r.distanceToSiteM,
          }
        : null,
    flags: flags.get(r.id) ?? [],
  }));
}

const dismisser = alias(users, "dismisser");

/** The flags whose details name the other evidence they match (cross-check.ts `matchDetails`). */
const MATCH_CODES = new Set(["reused_photo", "reused_file", "duplicate_document_number"]);

/**
 * An admin reads which project and milestone a reused photo or file or a repeated document number matches; members
 * read the stored sentence, which never names another project.
 */
function forAdmin(code: string, message: string, details: unknown): string {
  if (!MATCH_CODES.has(code)) return message;
  const match = (details as { matches?: { projectName?: string; milestoneTitle?: string }[] } | null)?.matches?.[0];
  if (!match?.projectName) return message;
  return `${message} (Admins only: it matches evidence in project "${match.projectName}", milestone "${match.milestoneTitle ?? ""}".)`;
}

/**
 * The flags of these evidence files (dismissed ones included), high severity first, by file. With `actor` an admin,
 * matches name the other project (see `forAdmin`).
 */
export async function flagsOf(
  db: DbOrTx,
  evidenceIds: string[],
  actor?: SessionUser,
): Promise<Map<string, EvidenceFlagDto[]>> {
  const byEvidence = new Map<string, EvidenceFlagDto[]>();
  if (evidenceIds.length === 0) return byEvidence;
  const rows = await db
    .select({
      id: evidenceFlags.id,
      evidenceId: evidenceFlags.evidenceId,
      code: evidenceFlags.code,
      severity: evidenceFlags.severity,
      message: evidenceFlags.message,
      details: evidenceFlags.details,
      dismissedAt: evidenceFlags.dismissedAt,
      dismissReason: evidenceFlags.dismissReason,
      dismissedById: evidenceFlags.dismissedBy,
      dismissedByName: dismisser.name,
    })
    .from(evidenceFlags)
    .leftJoin(dismisser, eq(dismisser.id, evidenceFlags.dismissedBy))
    .where(inArray(evidenceFlags.evidenceId, evidenceIds))
    .orderBy(asc(evidenceFlags.createdAt), asc(evidenceFlags.code));
  const rank = { high: 0, medium: 1, low: 2 } as const;
  for (const r of rows) {
    const flag: EvidenceFlagDto = {
      id: r.id,
      code: r.code as EvidenceFlagDto["code"],
      severity: r.severity as EvidenceFlagDto["severity"],
      message: actor?.role === "admin" ? forAdmin(r.code, r.message, r.details) : r.message,
      dismissed: r.dismissedAt !== null,
      dismissal:
        r.dismissedAt && r.dismissReason && r.dismissedById
          ? {
              reason: r.dismissReason,
              by: { id: r.dismissedById, name: r.dismissedByName ?? "" },
              at: r.dismissedAt.toISOString(),
            }
          : null,
    };
    const list = byEvidence.get(r.evidenceId) ?? [];
    list.push(flag);
    byEvidence.set(r.evidenceId, list);
  }
  for (const list of byEvidence.values()) list.sort((a, b) => rank[a.severity] - rank[b.severity]);
  return byEvidence;
}
