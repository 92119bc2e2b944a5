import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ProjectDetailDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { refreshCapitalData } from "@/lib/refresh-capital-data";

/** Admin: give the project to another project owner (the old and new owners are told). */
export function useTransferOwnership() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ projectId, userId }: { projectId: string; userId: string }) =>
      api<ProjectDetailDto>(`/projects/${projectId}/owner`, { method: "POST", body: { userId } }),
    onSuccess: () => refreshCapitalData(queryClient),
  });
}
