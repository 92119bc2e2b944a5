import type { EvidenceDto } from "@tranche/domain";
import type { ServiceContext } from "../../context";
import { evidence } from "../../db/schema";
import { conflict, forbidden } from "../../errors";
import { type MilestoneAccess, requireVisibleMilestone } from "../access";
import { appendAudit } from "../audit/append";
import { isEligibleVerifier } from "../verification/access";
import { evidenceList } from "./dto";
import { discardTemps, placeBlobs, receiveFiles, removeUnreferencedBlobs } from "./storage";

function requireUploader(access: MilestoneAccess, ctx: ServiceContext) {
  if (!access.isOwner && !isEligibleVerifier(access, ctx.actor)) {
    throw forbidden("Only the project owner or its verifier can upload evidence.");
  }
  if (access.milestone.status === "verified") {
    throw conflict("Milestone is verified; its evidence cannot be changed.", { status: "verified" });
  }
}

/**
 * Multipart upload of one or more files: permission is checked before the body is read, the files are
 * streamed and hashed to temp files, then rows, blobs and audit events are committed together.
 */
export async function uploadEvidence(
  ctx: ServiceContext,
  milestoneId: string,
  request: Request,
): Promise<EvidenceDto[]> {
  requireUploader(await requireVisibleMilestone(ctx.db, ctx.actor, milestoneId), ctx);
  const files = await receiveFiles(request, ctx.env);
  try {
    return await ctx.db.transaction(async (tx) => {
      const access = await requireVisibleMilestone(tx, ctx.actor, milestoneId, { lock: true });
      requireUploader(access, ctx);
      await placeBlobs(tx, ctx.env, files);
      const rows = await tx
        .insert(evidence)
        .values(
          files.map((f) => ({
            milestoneId,
            sha256: f.sha256,
            size: f.size,
            contentType: f.contentType,
            originalName: f.originalName,
            uploadedBy: ctx.actor.id,
          })),
        )
        .returning();
      for (const row of rows) {
        await appendAudit(tx, {
          actorId: ctx.actor.id,
          action: "evidence.uploaded",
          entityType: "evidence",
          entityId: row.id,
          projectId: access.project.id,
          after: {
            milestoneId,
            originalName: row.originalName,
            sha256: row.sha256,
            size: row.size,
            contentType: row.contentType,
          },
        });
      }
      const listed = new Map((await evidenceList(tx, ctx.actor, access.milestone)).map((e) => [e.id, e]));
      return rows.flatMap((r) => listed.get(r.id) ?? []);
    });
  } catch (error) {
    await discardTemps(files);
    await removeUnreferencedBlobs(
      ctx.db,
      ctx.env,
      files.map((f) => f.sha256),
    );
    throw error;
  }
}
