import { queryOptions, useQuery } from "@tanstack/react-query";
import type { MilestoneDetailDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { milestoneKeys } from "./keys";

export const milestoneQuery = (id: string) =>
  queryOptions({
    queryKey: milestoneKeys.detail(id),
    queryFn: () => api<MilestoneDetailDto>(`/milestones/${encodeURIComponent(id)}`),
  });

export function useMilestone(id: string) {
  return useQuery(milestoneQuery(id));
}
