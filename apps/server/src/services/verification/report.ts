import type { MilestoneStatus, VerificationReportDto } from "@tranche/domain";
import { asc, eq } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { evidence, verificationReports } from "../../db/schema";
import { forbidden } from "../../errors";
import { appendAudit } from "../audit/append";
import { requireEligibleVerifier, requireStatus } from "./access";
import { toChecklist } from "./dto";
import { withLockedMilestone } from "./locked";

/** Freezes the decision as a report: checklist, comments and the evidence hashes as they stand now. */
export function submitReport(
  ctx: ServiceContext,
  milestoneId: string,
  input: { comments?: string },
): Promise<VerificationReportDto> {
  return withLockedMilestone(ctx, milestoneId, async (tx, access) => {
    requireEligibleVerifier(access, ctx.actor);
    if (access.milestone.verifierId !== ctx.actor.id) {
      throw forbidden("Only the verifier who decided this milestone can submit its report.");
    }
    const status = requireStatus(access, ["verified", "rejected"], "reported on before a decision");
    const files = await tx
      .select({ id: evidence.id, originalName: evidence.originalName, sha256: evidence.sha256, size: evidence.size })
      .from(evidence)
      .where(eq(evidence.milestoneId, milestoneId))
      .orderBy(asc(evidence.createdAt));
    const checklist = toChecklist(access.milestone.checklist);
    const comments = input.comments?.length ? input.comments : access.milestone.comments;
    const [row] = await tx
      .insert(verificationReports)
      .values({ milestoneId, submittedBy: ctx.actor.id, status, checklist, comments, evidence: files })
      .returning();
    await appendAudit(tx, {
      actorId: ctx.actor.id,
      action: "report.submitted",
      entityType: "report",
      entityId: row.id,
      projectId: access.project.id,
      after: { milestoneId, status, checklist, comments, evidence: files },
    });
    return {
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
    };
  });
}
