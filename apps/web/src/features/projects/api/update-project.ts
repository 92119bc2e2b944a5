import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ProjectDetailDto, UpdateProjectInput } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { refreshCapitalData } from "@/lib/refresh-capital-data";
import { projectKeys } from "./keys";

export function updateProject({ id, ...body }: UpdateProjectInput & { id: string }) {
  return api<ProjectDetailDto>(`/projects/${encodeURIComponent(id)}`, { method: "PATCH", body });
}

/** Owner or admin: save changed project fields; the page shows the server's answer at once, then everything refetches. */
export function useUpdateProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProject,
    onSuccess: (project) => {
      queryClient.setQueryData(projectKeys.detail(project.id), project);
      return refreshCapitalData(queryClient);
    },
  });
}
