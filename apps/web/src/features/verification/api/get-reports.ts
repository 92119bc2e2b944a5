import { queryOptions, useQuery } from "@tanstack/react-query";
import type { VerificationReportDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { verificationKeys } from "./keys";

export const reportsQuery = queryOptions({
  queryKey: verificationKeys.reports(),
  queryFn: async () => (await api<{ items: VerificationReportDto[] }>("/reports")).items,
});

export function useReports() {
  return useQuery(reportsQuery);
}
