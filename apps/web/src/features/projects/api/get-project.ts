import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ProjectDetailDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { projectKeys } from "./keys";

export const projectQuery = (id: string) =>
  queryOptions({
    queryKey: projectKeys.detail(id),
    queryFn: () => api<ProjectDetailDto>(`/projects/${encodeURIComponent(id)}`),
  });

export function useProject(id: string) {
  return useQuery(projectQuery(id));
}
