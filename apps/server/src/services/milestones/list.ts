import type { Currency, MilestoneDto, MilestoneListItemDto, milestoneListQuerySchema } from "@tranche/domain";
import { and, asc, eq, lte, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { ServiceContext } from "../../context";
import { milestones, projects, users } from "../../db/schema";
import { requireVisibleProject } from "../access";
import { visibleProjects } from "../projects/visibility";
import { loadMilestones, milestoneColumns, toMilestoneDto } from "./dto";

/** A project's milestones, earliest due first. */
export async function listProjectMilestones(ctx: ServiceContext, projectId: string): Promise<MilestoneDto[]> {
  await requireVisibleProject(ctx.db, ctx.actor, projectId);
  return loadMilestones(ctx.db, eq(milestones.projectId, projectId));
}

/**
 * The caller's milestones across the projects they may see. `mine`: on projects they own;
 * `assigned`: on projects where they are a verifier, or assigned to them.
 */
export async function listMilestones(
  ctx: ServiceContext,
  query: z.output<typeof milestoneListQuerySchema>,
): Promise<MilestoneListItemDto[]> {
  const rows = await ctx.db
    .select({ ...milestoneColumns, projectName: projects.name, projectCurrency: projects.currency })
    .from(milestones)
    .innerJoin(projects, eq(projects.id, milestones.projectId))
    .leftJoin(users, eq(users.id, milestones.verifierId))
    .where(milestoneFilter(ctx, query))
    .orderBy(asc(milestones.dueDate), asc(milestones.createdAt));
  return rows.map((row) => ({
    ...toMilestoneDto(row),
    projectName: row.projectName,
    projectCurrency: row.projectCurrency as Currency,
  }));
}

/** The list's filter (also the CSV export's); the query joins projects. */
export function milestoneFilter(
  ctx: ServiceContext,
  query: z.output<typeof milestoneListQuerySchema>,
): SQL | undefined {
  const { actor } = ctx;
  const memberAs = (role: string) =>
    sql`exists (select 1 from project_members pm
      where pm.project_id = milestones.project_id and pm.user_id = ${actor.id} and pm.role = ${role})`;
  return and(
    visibleProjects(actor),
    query.status ? eq(milestones.status, query.status) : undefined,
    query.mine === "true" ? memberAs("owner") : undefined,
    query.assigned === "true" ? sql`(${memberAs("verifier")} or ${milestones.verifierId} = ${actor.id})` : undefined,
    query.dueBefore ? lte(milestones.dueDate, query.dueBefore) : undefined,
  );
}
