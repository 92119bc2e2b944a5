import { eq, getTableColumns } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { evidence } from "../../db/schema";
import { conflict, forbidden, notFound } from "../../errors";
import { requireVisibleMilestone } from "../access";
import { appendAudit } from "../audit/append";
import { removalRefusal, uploadedBeforeDecision, uploadedBeforeRelease } from "./dto";
import { removeUnreferencedBlobs } from "./storage";
import { voidDecisionsOnChangedEvidence } from "./voids";

/** Its uploader removes a file when `removalRefusal` allows it; the blob goes when nothing uses it. */
export async function removeEvidence(ctx: ServiceContext, evidenceId: string): Promise<void> {
  const sha256 = await ctx.db.transaction(async (tx) => {
    const [found] = await tx.select().from(evidence).where(eq(evidence.id, evidenceId));
    if (!found) throw notFound("Evidence");
    const access = await requireVisibleMilestone(tx, ctx.actor, found.milestoneId, { lock: true }).catch(() => {
      throw notFound("Evidence");
    });
    const [row] = await tx
      .select({
        ...getTableColumns(evidence),
        beforeRelease: uploadedBeforeRelease,
        beforeDecision: uploadedBeforeDecision,
      })
      .from(evidence)
      .where(eq(evidence.id, evidenceId))
      .for("update");
    if (!row) throw notFound("Evidence");
    const refusal = removalRefusal(ctx.actor, { milestone: access.milestone, ...row });
    if (refusal && row.uploadedBy !== ctx.actor.id) throw forbidden(refusal);
    if (refusal) throw conflict(refusal, { status: access.milestone.status });
    await tx.delete(evidence).where(eq(evidence.id, evidenceId));
    await appendAudit(tx, {
      actorId: ctx.actor.id,
      action: "evidence.removed",
      entityType: "evidence",
      entityId: evidenceId,
      projectId: access.project.id,
      before: { milestoneId: row.milestoneId, originalName: row.originalName, sha256: row.sha256, size: row.size },
    });
    await voidDecisionsOnChangedEvidence(tx, ctx, access, { removed: row.originalName });
    return row.sha256;
  });
  await removeUnreferencedBlobs(ctx.db, ctx.env, [sha256]);
}
