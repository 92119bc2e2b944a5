import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreateMilestoneInput, MilestoneDetailDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { refreshCapitalData } from "@/lib/refresh-capital-data";

export function createMilestone({ projectId, ...body }: CreateMilestoneInput & { projectId: string }) {
  return api<MilestoneDetailDto>(`/projects/${projectId}/milestones`, { method: "POST", body });
}

export function useCreateMilestone() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createMilestone, onSuccess: () => refreshCapitalData(queryClient) });
}
