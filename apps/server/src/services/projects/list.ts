import type { ProjectStatus, ProjectSummaryDto } from "@tranche/domain";
import { and, eq, ilike, or, type SQL } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { projects } from "../../db/schema";
import { loadProjectSummaries } from "./dto";
import { visibleProjects } from "./visibility";

/** A LIKE pattern matching `term` anywhere, with its own %, _ and \ taken literally (backslash is the default escape). */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/** The projects the caller may see, optionally one status only and/or matching a search term. */
export async function listProjects(
  ctx: ServiceContext,
  input: { status?: ProjectStatus; q?: string },
): Promise<ProjectSummaryDto[]> {
  return loadProjectSummaries(ctx.db, projectFilter(ctx, input));
}

/** The list's filter (also the CSV export's): visible to the caller, the status asked for, the search term. */
export function projectFilter(ctx: ServiceContext, input: { status?: ProjectStatus; q?: string }): SQL | undefined {
  const pattern = input.q ? containsPattern(input.q) : undefined;
  return and(
    visibleProjects(ctx.actor),
    input.status ? eq(projects.status, input.status) : undefined,
    pattern
      ? or(ilike(projects.name, pattern), ilike(projects.description, pattern), ilike(projects.location, pattern))
      : undefined,
  );
}
