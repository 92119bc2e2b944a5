import type {
  Currency,
  MilestoneDto,
  MilestoneListItemDto,
  MilestoneSort,
  milestoneListQuerySchema,
  Page,
} from "@tranche/domain";
import { and, eq, ilike, lte, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { ServiceContext } from "../../context";
import { milestones, projects, users } from "../../db/schema";
import { keyset, keysetPage, type SortSpec } from "../../lib/keyset";
import { requireVisibleProject } from "../access";
import { containsPattern } from "../projects/list";
import { visibleProjects } from "../projects/visibility";
import { loadMilestones, milestoneColumns, toMilestoneDto } from "./dto";

/** A project's milestones, earliest due first. */
export async function listProjectMilestones(ctx: ServiceContext, projectId: string): Promise<MilestoneDto[]> {
  await requireVisibleProject(ctx.db, ctx.actor, projectId);
  return loadMilestones(ctx.db, eq(milestones.projectId, projectId));
}

const id = { expr: milestones.id, type: "uuid" } as const;
const MILESTONE_SORT_SPECS: Record<MilestoneSort, SortSpec> = {
  due: {
    name: "due",
    direction: "asc",
    keys: [{ expr: milestones.dueDate, type: "date" }, { expr: milestones.createdAt, type: "timestamptz" }, id],
  },
  newest: { name: "newest", direction: "desc", keys: [{ expr: milestones.createdAt, type: "timestamptz" }, id] },
  amount: { name: "amount", direction: "desc", keys: [{ expr: milestones.capitalAmount, type: "numeric" }, id] },
};

/**
 * One page of the caller's milestones across the projects they may see. `mine`: on projects they own;
 * `assigned`: on projects where they are a verifier, or assigned to them.
 */
export async function listMilestones(
  ctx: ServiceContext,
  query: z.output<typeof milestoneListQuerySchema>,
): Promise<Page<MilestoneListItemDto>> {
  const spec = MILESTONE_SORT_SPECS[query.sort];
  const page = keyset(spec, query.cursor);
  const rows = await ctx.db
    .select({
      ...milestoneColumns,
      projectName: projects.name,
      projectCurrency: projects.currency,
      keysetKeys: page.keys,
    })
    .from(milestones)
    .innerJoin(projects, eq(projects.id, milestones.projectId))
    .leftJoin(users, eq(users.id, milestones.verifierId))
    .where(and(milestoneFilter(ctx, query), page.after))
    .orderBy(...page.orderBy)
    .limit(query.limit + 1);
  const { page: items, nextCursor } = keysetPage(rows, query.limit, spec);
  return {
    items: items.map((row) => ({
      ...toMilestoneDto(row),
      projectName: row.projectName,
      projectCurrency: row.projectCurrency as Currency,
    })),
    nextCursor,
  };
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
    query.projectId ? eq(milestones.projectId, query.projectId) : undefined,
    // Answered by the trigram index milestones_title_trgm_idx.
    query.q ? ilike(milestones.title, containsPattern(query.q)) : undefined,
  );
}
