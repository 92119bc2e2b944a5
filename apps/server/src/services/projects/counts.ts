import { PROJECT_STATUSES, type ProjectStatus, type StatusCountsDto } from "@tranche/domain";
import { eq, sql } from "drizzle-orm";
import type { CallerContext } from "../../context";
import { projectRollups, projects } from "../../db/schema";
import { statusCounts } from "../../lib/status-counts";
import { projectFilter } from "./list";
import { projectStatusSql } from "./status";

/** How many projects the caller may see match the search, per status (the list's status tabs). */
export async function countProjects(
  ctx: CallerContext,
  input: { q?: string },
): Promise<StatusCountsDto<ProjectStatus>> {
  const status = projectStatusSql("projects", "project_rollups");
  const rows = await ctx.db
    .select({ status, count: sql<number>`count(*)::int` })
    .from(projects)
    .leftJoin(projectRollups, eq(projectRollups.projectId, projects.id))
    .where(projectFilter(ctx.caller, input))
    // By position: the expression's date parameter would make a repeated expression a different one.
    .groupBy(sql`1`);
  return statusCounts(PROJECT_STATUSES, rows);
}
