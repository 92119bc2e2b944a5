import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import { refreshCapitalData } from "@/lib/refresh-capital-data";
import { projectKeys } from "./keys";

export function deleteProject(id: string) {
  return api<void>(`/projects/${encodeURIComponent(id)}`, { method: "DELETE" });
}

/** Owner or admin: delete a project and, with it, its milestones. */
export function useDeleteProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteProject,
    onSuccess: (_nothing, id) => {
      // Drop the deleted project's own query before refreshing: refetched, it would answer 404 and its page
      // would report 'Project not found' while we leave it.
      queryClient.removeQueries({ queryKey: projectKeys.detail(id) });
      return refreshCapitalData(queryClient);
    },
  });
}
