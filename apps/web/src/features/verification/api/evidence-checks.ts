import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { EvidenceChecksDto, EvidenceFlagCode, EvidenceFlagDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { verificationKeys } from "./keys";

const checksKey = (evidenceId: string) => [...verificationKeys.all, "checks", evidenceId] as const;

/** What the background checks read from a file; asked again every few seconds while they have not run yet. */
export function useEvidenceChecks(evidenceId: string) {
  return useQuery({
    queryKey: checksKey(evidenceId),
    queryFn: () => api<EvidenceChecksDto>(`/evidence/${encodeURIComponent(evidenceId)}/checks`),
    refetchInterval: (query) => (query.state.data?.status === "pending" ? 3_000 : false),
  });
}

/** A verifier sets a flag aside with a reason; the file's flags everywhere are read again. */
export function useDismissFlag(evidenceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ code, reason }: { code: EvidenceFlagCode; reason: string }) =>
      api<EvidenceFlagDto>(`/evidence/${encodeURIComponent(evidenceId)}/flags/${code}/dismiss`, {
        method: "POST",
        body: { reason },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: verificationKeys.all }),
  });
}
