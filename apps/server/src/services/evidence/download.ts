import type { Readable } from "node:stream";
import { cleanEvidenceName } from "@tranche/domain";
import { eq } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { evidence } from "../../db/schema";
import { AppError, notFound } from "../../errors";
import { requireVisibleMilestone } from "../access";
import { evidenceStore } from "./store";

export interface EvidenceDownload {
  stream: Readable;
  size: number;
  contentType: string;
  originalName: string;
  sha256: string;
}

/** The stored file, for those who can see its milestone (others get 404, as for the milestone). */
export async function openEvidence(ctx: ServiceContext, evidenceId: string): Promise<EvidenceDownload> {
  const [row] = await ctx.db.select().from(evidence).where(eq(evidence.id, evidenceId));
  if (!row) throw notFound("Evidence");
  try {
    await requireVisibleMilestone(ctx.db, ctx.actor, row.milestoneId);
  } catch {
    throw notFound("Evidence");
  }
  const stream = await evidenceStore(ctx.env).open(row.sha256);
  if (!stream) throw new AppError("not_found", "The evidence file is missing from storage.");
  return {
    stream,
    size: row.size,
    contentType: row.contentType,
    originalName: cleanEvidenceName(row.originalName),
    sha256: row.sha256,
  };
}
