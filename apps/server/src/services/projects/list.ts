import type { ProjectStatus, ProjectSummaryDto } from "@tranche/domain";
import { and, eq, ilike, or, type SQL } from "drizzle-orm";
import type { Caller, CallerContext as ReaderContext } from "../../context";
import { projects } from "../../db/schema";
import { loadProjectSummaries } from "./dto";
import { visibleProjects } from "./visibility";

/** A LIKE pattern matching `term` anywhere, with its own %, _ and \ taken literally (backslash is the default escape). */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/** The projects the caller may see, optionally one status only and/or matching a search term. */
export async function listProjects(
  ctx: ReaderContext,
  input: { status?: ProjectStatus; q?: string },
): Promise<ProjectSummaryDto[]> {
  return loadProjectSummaries(ctx.db, projectFilter(ctx.caller, input));
}

/** The list's filter (also the CSV export's): visible to the caller, the status asked for, the search term. */
export function projectFilter(caller: Caller, input: { status?: ProjectStatus; q?: string }): SQL | undefined {
  const pattern = input.q ? containsPattern(input.q) : undefined;
  return and(
    // An API token with projects:read reads every project, as an integration of the whole fund.
    caller.kind === "token" ? undefined : visibleProjects(caller.user),
    input.status ? eq(projects.status, input.status) : undefined,
    pattern
      ? or(ilike(projects.name, pattern), ilike(projects.description, pattern), ilike(projects.location, pattern))
      : undefined,
  );
}
