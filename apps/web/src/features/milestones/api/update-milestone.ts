import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { MilestoneDetailDto, UpdateMilestoneInput } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { refreshCapitalData } from "@/lib/refresh-capital-data";

export function updateMilestone({ id, ...body }: UpdateMilestoneInput & { id: string }) {
  return api<MilestoneDetailDto>(`/milestones/${id}`, { method: "PATCH", body });
}

export function useUpdateMilestone() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateMilestone, onSuccess: () => refreshCapitalData(queryClient) });
}
