import type { ProjectStatus, ProjectSummaryDto } from "@tranche/domain";
import { and, eq, ilike, or } from "drizzle-orm";
import type { CallerContext as ReaderContext } from "../../context";
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
  const pattern = input.q ? containsPattern(input.q) : undefined;
  const where = and(
    // An API token with projects:read reads every project, as an integration of the whole fund.
    ctx.caller.kind === "token" ? undefined : visibleProjects(ctx.caller.user),
    input.status ? eq(projects.status, input.status) : undefined,
    pattern
      ? or(ilike(projects.name, pattern), ilike(projects.description, pattern), ilike(projects.location, pattern))
      : undefined,
  );
  return loadProjectSummaries(ctx.db, where);
}
