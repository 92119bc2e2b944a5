import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ProjectSummaryDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { projectKeys } from "./keys";

export const projectsQuery = queryOptions({
  queryKey: projectKeys.list(),
  queryFn: () => api<ProjectSummaryDto[]>("/projects"),
});

/** The projects the signed-in user may see. */
export function useProjects() {
  return useQuery(projectsQuery);
}
