import type { EvidenceDto } from "@tranche/domain";
import { asc, eq } from "drizzle-orm";
import type { SessionUser } from "../../context";
import type { DbOrTx } from "../../db/client";
import { evidence, users } from "../../db/schema";

/** A milestone's evidence, oldest first, with who uploaded it and whether the caller may remove it. */
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
    })
    .from(evidence)
    .innerJoin(users, eq(users.id, evidence.uploadedBy))
    .where(eq(evidence.milestoneId, milestone.id))
    .orderBy(asc(evidence.createdAt), asc(evidence.originalName), asc(evidence.id));
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
  }));
}
