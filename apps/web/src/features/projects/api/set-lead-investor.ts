import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ProjectDetailDto } from "@tranche/domain";
import { api } from "@/lib/api-client";

/** Admin: name the project's lead investor, who may then set its release policy. */
export function useSetLeadInvestor(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      api<ProjectDetailDto>(`/projects/${projectId}/lead-investor`, { method: "PUT", body: { userId } }),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
