import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import { refreshCapitalData } from "@/lib/refresh-capital-data";

export function deleteMilestone(id: string) {
  return api<void>(`/milestones/${id}`, { method: "DELETE" });
}

export function useDeleteMilestone() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteMilestone, onSuccess: () => refreshCapitalData(queryClient) });
}
