import type {
  Checklist,
  MilestoneStatus,
  Page,
  ReportSort,
  reportListQuerySchema,
  VerificationReportDto,
} from "@tranche/domain";
import { and, eq, inArray } from "drizzle-orm";
import type { z } from "zod";
import type { ServiceContext } from "../../context";
import { milestones, projectMembers, projects, users, verificationReports } from "../../db/schema";
import { keyset, keysetPage, type SortSpec } from "../../lib/keyset";

const submitted = [
  { expr: verificationReports.createdAt, type: "timestamptz" },
  { expr: verificationReports.id, type: "uuid" },
] satisfies SortSpec["keys"];
const REPORT_SORT_SPECS: Record<ReportSort, SortSpec> = {
  newest: { name: "newest", direction: "desc", keys: submitted },
  oldest: { name: "oldest", direction: "asc", keys: submitted },
};

/** A page of submitted verification reports the caller may see (all for admins, else their projects'), newest or oldest first. */
export async function listReports(
  ctx: ServiceContext,
  input: z.output<typeof reportListQuerySchema>,
): Promise<Page<VerificationReportDto>> {
  const { db, actor } = ctx;
  const spec = REPORT_SORT_SPECS[input.sort];
  const page = keyset(spec, input.cursor);
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
      keysetKeys: page.keys,
    })
    .from(verificationReports)
    .innerJoin(milestones, eq(milestones.id, verificationReports.milestoneId))
    .innerJoin(projects, eq(projects.id, milestones.projectId))
    .innerJoin(users, eq(users.id, verificationReports.submittedBy))
    .$dynamic();
  const rows = await query
    .where(
      and(
        actor.role === "admin"
          ? undefined
          : inArray(
              projects.id,
              db
                .select({ id: projectMembers.projectId })
                .from(projectMembers)
                .where(eq(projectMembers.userId, actor.id)),
            ),
        input.status ? eq(verificationReports.status, input.status) : undefined,
        input.projectId ? eq(projects.id, input.projectId) : undefined,
        page.after,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(input.limit + 1);
  const { page: items, nextCursor } = keysetPage(rows, input.limit, spec);
  return {
    items: items.map((r) => ({
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
    })),
    nextCursor,
  };
}
