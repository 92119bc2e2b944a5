import type { EvidenceDto, EvidenceFlagDto } from "@tranche/domain";
import { asc, eq, inArray } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { SessionUser } from "../../context";
import type { DbOrTx } from "../../db/client";
import { evidence, evidenceFlags, users } from "../../db/schema";

/** A milestone's evidence, oldest first, with who uploaded it, its capture tags and flags, and whether the caller may remove it. */
export async function evidenceList(
  db: DbOrTx,
  actor: SessionUser,
  milestone: { id: string; status: string },
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
      createdAt: evidence.createdAt,
      latitude: evidence.captureLatitude,
      longitude: evidence.captureLongitude,
      accuracy: evidence.captureAccuracyM,
      capturedAt: evidence.capturedAt,
      distanceToSiteM: evidence.distanceToSiteM,
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
    originalName: r.originalName,
    size: r.size,
    contentType: r.contentType,
    sha256: r.sha256,
    uploadedBy: { id: r.uploaderId, name: r.uploaderName },
    createdAt: r.createdAt.toISOString(),
    canRemove: r.uploaderId === actor.id && milestone.status !== "verified",
    capture:
      r.latitude !== null && r.longitude !== null && r.capturedAt !== null
        ? {
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

/**
 * An admin reads which project and milestone a reused photo or a repeated document number matches; members read the
 * stored sentence, which never names another project.
 */
function forAdmin(code: string, message: string, details: unknown): string {
  if (code !== "reused_photo" && code !== "duplicate_document_number") return message;
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
