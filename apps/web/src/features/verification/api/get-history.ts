import { queryOptions, useQuery } from "@tanstack/react-query";
import type { AuditEventDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { milestonePath, verificationKeys } from "./keys";

export const historyQuery = (milestoneId: string) =>
  queryOptions({
    queryKey: verificationKeys.history(milestoneId),
    queryFn: async () => (await api<{ items: AuditEventDto[] }>(`${milestonePath(milestoneId)}/history`)).items,
  });

export function useMilestoneHistory(milestoneId: string) {
  return useQuery(historyQuery(milestoneId));
}
