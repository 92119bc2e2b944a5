import type { Page, ProjectSort, ProjectStatus, ProjectSummaryDto } from "@tranche/domain";
import { and, ilike, or, type SQL, sql } from "drizzle-orm";
import type { Caller, CallerContext as ReaderContext } from "../../context";
import { projectRollups, projects } from "../../db/schema";
import { byName, keyset, keysetPage, type SortSpec } from "../../lib/keyset";
import { selectProjectSummaries, toProjectSummary } from "./dto";
import { projectStatusSql } from "./status";
import { visibleProjects } from "./visibility";

/** A LIKE pattern matching `term` anywhere, with its own %, _ and \ taken literally (backslash is the default escape). */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

const id = { expr: projects.id, type: "uuid" } as const;
// A project without open milestones sorts after every due date.
const NO_DUE_DATE = sql`'9999-12-31'::date`;
/** The list's sorts (the CSV export reads in the same order). */
export const PROJECT_SORT_SPECS: Record<ProjectSort, SortSpec> = {
  newest: { name: "newest", direction: "desc", keys: [{ expr: projects.createdAt, type: "timestamptz" }, id] },
  name: byName(projects.name, projects.id),
  next_due: {
    name: "next_due",
    direction: "asc",
    keys: [{ expr: sql`coalesce(${projectRollups.nextDueDate}, ${NO_DUE_DATE})`, type: "date" }, id],
  },
  activity: {
    name: "activity",
    direction: "desc",
    keys: [{ expr: sql`coalesce(${projectRollups.lastActivityAt}, ${projects.createdAt})`, type: "timestamptz" }, id],
  },
};

/** One page of the projects the caller may see, filtered by status and/or a search term, in the sort asked for. */
export async function listProjects(
  ctx: ReaderContext,
  input: { status?: ProjectStatus; q?: string; sort: ProjectSort; limit: number; cursor?: string },
): Promise<Page<ProjectSummaryDto>> {
  const spec = PROJECT_SORT_SPECS[input.sort];
  const page = keyset(spec, input.cursor);
  const rows = await selectProjectSummaries(ctx.db, { keysetKeys: page.keys })
    .where(and(projectFilter(ctx.caller, input), page.after))
    .orderBy(...page.orderBy)
    .limit(input.limit + 1);
  const { page: items, nextCursor } = keysetPage(rows, input.limit, spec);
  return { items: items.map(toProjectSummary), nextCursor };
}

/**
 * The list's filter (also the CSV export's and the status counts'): visible to the caller, the status asked for,
 * the search term. The query must left-join project_rollups (the status is derived from it).
 */
export function projectFilter(caller: Caller, input: { status?: ProjectStatus; q?: string }): SQL | undefined {
  const pattern = input.q ? containsPattern(input.q) : undefined;
  return and(
    // An API token with projects:read reads every project, as an integration of the whole fund.
    caller.kind === "token" ? undefined : visibleProjects(caller.user),
    input.status ? sql`${projectStatusSql("projects", "project_rollups")} = ${input.status}` : undefined,
    // ILIKE '%term%' is answered by the trigram index projects_search_trgm_idx (pg_trgm).
    pattern
      ? or(ilike(projects.name, pattern), ilike(projects.description, pattern), ilike(projects.location, pattern))
      : undefined,
  );
}
