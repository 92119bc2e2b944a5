import { queryOptions, useQuery } from "@tanstack/react-query";
import type { EvidenceDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { milestonePath, verificationKeys } from "./keys";

export const evidenceQuery = (milestoneId: string) =>
  queryOptions({
    queryKey: verificationKeys.evidence(milestoneId),
    queryFn: async () => (await api<{ items: EvidenceDto[] }>(`${milestonePath(milestoneId)}/evidence`)).items,
  });

export function useEvidence(milestoneId: string) {
  return useQuery(evidenceQuery(milestoneId));
}

export const evidenceDownloadUrl = (evidenceId: string) => `/api/evidence/${encodeURIComponent(evidenceId)}`;
