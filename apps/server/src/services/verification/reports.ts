import type { Checklist, MilestoneStatus, VerificationReportDto } from "@tranche/domain";
import { desc, eq, inArray } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { milestones, projectMembers, projects, users, verificationReports } from "../../db/schema";

const MAX_REPORTS = 200;

/** Submitted verification reports the caller may see: all for admins, else those of their projects. */
export async function listReports(ctx: ServiceContext): Promise<VerificationReportDto[]> {
  const { db, actor } = ctx;
  const query = db
    .select({
      id: verificationReports.id,
      milestoneId: verificationReports.milestoneId,
      milestoneTitle: milestones.title,
      projectId: projects.id,
      projectName: projects.name,
      status: verificationReports.status,
      checklist: verificationReports.checklist,
      comments: verificationReports.comments,
      evidence: verificationReports.evidence,
      submittedById: users.id,
      submittedByName: users.name,
      createdAt: verificationReports.createdAt,
      updatedAt: verificationReports.updatedAt,
    })
    .from(verificationReports)
    .innerJoin(milestones, eq(milestones.id, verificationReports.milestoneId))
    .innerJoin(projects, eq(projects.id, milestones.projectId))
    .innerJoin(users, eq(users.id, verificationReports.submittedBy))
    .$dynamic();
  const visible =
    actor.role === "admin"
      ? query
      : query.where(
          inArray(
            projects.id,
            db.select({ id: projectMembers.projectId }).from(projectMembers).where(eq(projectMembers.userId, actor.id)),
          ),
        );
  const rows = await visible.orderBy(desc(verificationReports.createdAt)).limit(MAX_REPORTS);
  return rows.map((r) => ({
    id: r.id,
    milestoneId: r.milestoneId,
    milestoneTitle: r.milestoneTitle,
    projectId: r.projectId,
    projectName: r.projectName,
    status: r.status as MilestoneStatus,
    checklist: r.checklist as Checklist,
    comments: r.comments,
    evidence: r.evidence as VerificationReportDto["evidence"],
    submittedBy: { id: r.submittedById, name: r.submittedByName },
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
}
