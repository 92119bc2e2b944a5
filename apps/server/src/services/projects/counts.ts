import { PROJECT_STATUSES, type ProjectStatus, type StatusCountsDto } from "@tranche/domain";
import { sql } from "drizzle-orm";
import type { CallerContext } from "../../context";
import { projects } from "../../db/schema";
import { statusCounts } from "../../lib/status-counts";
import { projectFilter } from "./list";

/** How many projects the caller may see match the search, per status (the list's status tabs). */
export async function countProjects(
  ctx: CallerContext,
  input: { q?: string },
): Promise<StatusCountsDto<ProjectStatus>> {
  const rows = await ctx.db
    .select({ status: projects.status, count: sql<number>`count(*)::int` })
    .from(projects)
    .where(projectFilter(ctx.caller, input))
    .groupBy(projects.status);
  return statusCounts(PROJECT_STATUSES, rows);
}
