import type { ProjectStatus, ProjectSummaryDto } from "@tranche/domain";
import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { projects } from "../../db/schema";
import { loadProjectSummaries } from "./dto";
import { visibleProjects } from "./visibility";

/** The projects the caller may see, optionally one status only. */
export async function listProjects(
  ctx: ServiceContext,
  input: { status?: ProjectStatus },
): Promise<ProjectSummaryDto[]> {
  const where = and(visibleProjects(ctx.actor), input.status ? eq(projects.status, input.status) : undefined);
  return loadProjectSummaries(ctx.db, where);
}
