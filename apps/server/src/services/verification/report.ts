import type { MilestoneStatus, VerificationReportDto } from "@tranche/domain";
import { and, asc, eq, lte } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { evidence, verificationReports } from "../../db/schema";
import { conflict, forbidden } from "../../errors";
import { appendAudit } from "../audit/append";
import { flagsOf } from "../evidence/dto";
import { requireEligibleVerifier, requireStatus } from "./access";
import { toChecklist } from "./dto";
import { withLockedMilestone } from "./locked";

/**
 * Freezes the decision as a report: checklist, comments and the hashes of the evidence it was made on (files added
 * after it, as an owner answering a rejection does, belong to the next round). There is one report per decision:
 * submitting again edits it (audited as report.updated, with what it said before).
 */
export function submitReport(
  ctx: ServiceContext,
  milestoneId: string,
  input: { comments?: string },
): Promise<{ report: VerificationReportDto; created: boolean }> {
  return withLockedMilestone(ctx, milestoneId, async (tx, access) => {
    requireEligibleVerifier(access, ctx.actor);
    if (access.milestone.verifierId !== ctx.actor.id) {
      throw forbidden("Only the verifier who decided this milestone can submit its report.");
    }
    const status = requireStatus(access, ["verified", "rejected"], "reported on before a decision");
    const decidedAt = access.milestone.verificationDate;
    if (!decidedAt) throw conflict("This decision has no date; it cannot be reported on.", { status });
    const rows = await tx
      .select({ id: evidence.id, originalName: evidence.originalName, sha256: evidence.sha256, size: evidence.size })
      .from(evidence)
      .where(and(eq(evidence.milestoneId, milestoneId), lte(evidence.createdAt, decidedAt)))
      .orderBy(asc(evidence.createdAt));
    // The flags as they stand at the decision (the evidence checks' and the capture tags'), dismissed ones marked.
    const flags = await flagsOf(
      tx,
      rows.map((r) => r.id),
    );
    const files = rows.map((file) => {
      const raised = flags.get(file.id) ?? [];
      return raised.length
        ? {
            ...file,
            flags: raised.map((f) => ({
              code: f.code,
              severity: f.severity,
              message: f.message,
              dismissed: f.dismissed,
            })),
          }
        : file;
    });
    const checklist = toChecklist(access.milestone.checklist);
    const comments = input.comments?.length ? input.comments : access.milestone.comments;
    const content = { status, checklist, comments, evidence: files };
    const [existing] = await tx
      .select()
      .from(verificationReports)
      .where(and(eq(verificationReports.milestoneId, milestoneId), eq(verificationReports.decidedAt, decidedAt)));
    const [row] = existing
      ? await tx
          .update(verificationReports)
          .set({ ...content, submittedBy: ctx.actor.id, updatedAt: new Date() })
          .where(eq(verificationReports.id, existing.id))
          .returning()
      : await tx
          .insert(verificationReports)
          .values({ ...content, milestoneId, submittedBy: ctx.actor.id, decidedAt })
          .returning();
    await appendAudit(tx, {
      actorId: ctx.actor.id,
      action: existing ? "report.updated" : "report.submitted",
      entityType: "report",
      entityId: row.id,
      projectId: access.project.id,
      before: existing
        ? {
            milestoneId,
            status: existing.status,
            checklist: existing.checklist,
            comments: existing.comments,
            evidence: existing.evidence,
          }
        : undefined,
      after: { milestoneId, ...content },
    });
    return {
      created: !existing,
      report: {
        id: row.id,
        milestoneId,
        milestoneTitle: access.milestone.title,
        projectId: access.project.id,
        projectName: access.project.name,
        status: status as MilestoneStatus,
        checklist,
        comments,
        evidence: files,
        submittedBy: { id: ctx.actor.id, name: ctx.actor.name },
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
      },
    };
  });
}
