import type { EvidenceChecksDto } from "@tranche/domain";
import { eq } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { evidence, evidenceChecks } from "../../db/schema";
import { notFound } from "../../errors";
import { requireVisibleMilestone } from "../access";
import { flagsOf } from "../evidence/dto";

/** The checks' result for a file, for whoever may see its milestone (others get 404, as for the file). */
export async function evidenceChecksOf(ctx: ServiceContext, evidenceId: string): Promise<EvidenceChecksDto> {
  const [row] = await ctx.db
    .select({ milestoneId: evidence.milestoneId, checks: evidenceChecks })
    .from(evidence)
    .leftJoin(evidenceChecks, eq(evidenceChecks.evidenceId, evidence.id))
    .where(eq(evidence.id, evidenceId));
  if (!row) throw notFound("Evidence");
  await requireVisibleMilestone(ctx.db, ctx.actor, row.milestoneId).catch(() => {
    throw notFound("Evidence");
  });
  const flags = (await flagsOf(ctx.db, [evidenceId], ctx.actor)).get(evidenceId) ?? [];
  const status = (row.checks?.status ?? "pending") as EvidenceChecksDto["status"];
  return {
    status,
    checkerVersion: row.checks?.checkerVersion ?? null,
    extracted: status === "done" ? (row.checks?.extracted ?? null) : null,
    flags: flags.map((f) => ({ code: f.code, severity: f.severity, message: f.message, dismissed: f.dismissed })),
  };
}
