import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ProjectSummaryDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { projectKeys } from "./keys";

/** The caller's projects; with a search term, only those whose name, description or location contains it. */
export const projectsQuery = (search = "") =>
  queryOptions({
    queryKey: projectKeys.list(search),
    queryFn: () => api<ProjectSummaryDto[]>(search ? `/projects?${new URLSearchParams({ q: search })}` : "/projects"),
  });

/** The projects the signed-in user may see, optionally matching a search term. */
export function useProjects(search = "") {
  return useQuery(projectsQuery(search));
}
