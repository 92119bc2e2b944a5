import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ReleasePolicyDto, ReleasePolicyInput } from "@tranche/domain";
import { api } from "@/lib/api-client";

export const releasePolicyKeys = {
  detail: (projectId: string) => ["release-policy", projectId] as const,
};

export const releasePolicyQuery = (projectId: string) =>
  queryOptions({
    queryKey: releasePolicyKeys.detail(projectId),
    queryFn: () => api<ReleasePolicyDto>(`/projects/${projectId}/release-policy`),
  });

export function useReleasePolicy(projectId: string) {
  return useQuery(releasePolicyQuery(projectId));
}

/** PUT a new policy version; the project (its one-sentence rule) and open milestones refetch. */
export function useSetReleasePolicy(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ReleasePolicyInput) =>
      api<ReleasePolicyDto>(`/projects/${projectId}/release-policy`, { method: "PUT", body: input }),
    onSuccess: async (data) => {
      queryClient.setQueryData(releasePolicyKeys.detail(projectId), data);
      await queryClient.invalidateQueries();
    },
  });
}
