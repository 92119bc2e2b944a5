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
/** The list's sorts (the CSV export reads in the same order). */
export const MILESTONE_SORT_SPECS: Record<MilestoneSort, SortSpec> = {
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
  const conditions = and(milestoneConditions(ctx, query), page.after);
  const take = query.limit + 1;
  // An admin's page walks the sort's index over every milestone. A member's is read project by project: each
  // visible project's own first rows (milestones_project_idx for the due sort), the page's ids picked from those,
  // and only those rows read whole, so its cost follows the projects the member sees and never the milestones of
  // projects they cannot see. (In each subquery, "milestones" names that subquery's own rows.)
  const order = sql.join(page.orderBy, sql`, `);
  const scope =
    ctx.actor.role === "admin"
      ? conditions
      : sql`${milestones.id} = any(array(
          select ${milestones.id}
          from (select distinct project_id from project_members where user_id = ${ctx.actor.id}) visible
          cross join lateral (
            select * from ${milestones}
            where ${milestones.projectId} = visible.project_id${conditions ? sql` and ${conditions}` : sql``}
            order by ${order}
            limit ${take}
          ) ${milestones}
          order by ${order}
          limit ${take}))`;
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
    .where(scope)
    .orderBy(...page.orderBy)
    .limit(take);
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

/** What narrows the list, beside visibility (its sort and page aside). */
type MilestoneFilterInput = Partial<
  Pick<z.output<typeof milestoneListQuerySchema>, "status" | "mine" | "assigned" | "dueBefore" | "projectId" | "q">
>;

/** The list's filter (also the CSV export's and the status counts'): the caller's visible projects and the query's conditions. */
export function milestoneFilter(ctx: ServiceContext, query: MilestoneFilterInput): SQL | undefined {
  return and(visibleProjects(ctx.actor), milestoneConditions(ctx, query));
}

/** The query's conditions on milestones (status, mine, assigned, due before, project, search), visibility aside. */
function milestoneConditions(ctx: ServiceContext, query: MilestoneFilterInput): SQL | undefined {
  const { actor } = ctx;
  const memberAs = (role: string) =>
    sql`exists (select 1 from project_members pm
      where pm.project_id = milestones.project_id and pm.user_id = ${actor.id} and pm.role = ${role})`;
  return and(
    query.status ? eq(milestones.status, query.status) : undefined,
    query.mine === "true" ? memberAs("owner") : undefined,
    query.assigned === "true" ? sql`(${memberAs("verifier")} or ${milestones.verifierId} = ${actor.id})` : undefined,
    query.dueBefore ? lte(milestones.dueDate, query.dueBefore) : undefined,
    query.projectId ? eq(milestones.projectId, query.projectId) : undefined,
    // Answered by the trigram index milestones_title_trgm_idx.
    query.q ? ilike(milestones.title, containsPattern(query.q)) : undefined,
  );
}
