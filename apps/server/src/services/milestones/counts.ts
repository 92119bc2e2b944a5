import {
  MILESTONE_STATUSES,
  type MilestoneStatus,
  type milestoneCountsQuerySchema,
  type StatusCountsDto,
} from "@tranche/domain";
import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { ServiceContext } from "../../context";
import { queryRows } from "../../db/client";
import { milestones, projects } from "../../db/schema";
import { statusCounts } from "../../lib/status-counts";
import { visibleProjects } from "../projects/visibility";
import { milestoneFilter } from "./list";

/**
 * How many milestones the caller may see match the list's filters, per status (its status tabs). Unfiltered, they
 * are the sums of the visible projects' rollups: one row per project, never the milestones themselves.
 */
export async function countMilestones(
  ctx: ServiceContext,
  query: z.output<typeof milestoneCountsQuerySchema>,
): Promise<StatusCountsDto<MilestoneStatus>> {
  const filtered = query.q || query.mine === "true" || query.assigned === "true" || query.dueBefore || query.projectId;
  if (!filtered) {
    const visible = visibleProjects(ctx.actor);
    const [row] = await queryRows<Record<MilestoneStatus, number>>(
      ctx.db,
      sql`select coalesce(sum(r.milestones_pending), 0)::int as pending,
                 coalesce(sum(r.milestones_in_verification), 0)::int as in_verification,
                 coalesce(sum(r.milestones_verified), 0)::int as verified,
                 coalesce(sum(r.milestones_rejected), 0)::int as rejected,
                 coalesce(sum(r.milestones_delayed), 0)::int as delayed
          from project_rollups r join projects on projects.id = r.project_id
          ${visible ? sql`where ${visible}` : sql``}`,
    );
    return statusCounts(
      MILESTONE_STATUSES,
      MILESTONE_STATUSES.map((status) => ({ status, count: row?.[status] ?? 0 })),
    );
  }
  const rows = await ctx.db
    .select({ status: milestones.status, count: sql<number>`count(*)::int` })
    .from(milestones)
    .innerJoin(projects, eq(projects.id, milestones.projectId))
    .where(milestoneFilter(ctx, query))
    .groupBy(milestones.status);
  return statusCounts(MILESTONE_STATUSES, rows);
}
