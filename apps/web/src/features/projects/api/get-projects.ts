import type { ProjectSort, ProjectStatus, ProjectSummaryDto } from "@tranche/domain";
import { pagedQuery, usePagedList, useStatusCounts } from "@/lib/paged-query";
import { projectKeys } from "./keys";

export interface ProjectListParams {
  /** Matches name, description or location. */
  q?: string;
  status?: ProjectStatus;
  sort?: ProjectSort;
}

/** The caller's projects, a page at a time, filtered, searched and sorted on the server. */
export const projectsQuery = (params: ProjectListParams = {}) =>
  pagedQuery<ProjectSummaryDto>(projectKeys.lists, "/projects", { ...params });

export function useProjects(params: ProjectListParams = {}) {
  return usePagedList(projectsQuery(params));
}

/** How many projects the search matches, per status (the list's tabs). */
export function useProjectCounts(params: Pick<ProjectListParams, "q"> = {}) {
  return useStatusCounts<ProjectStatus>(projectKeys.lists, "/projects", { ...params });
}
