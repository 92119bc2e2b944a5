import { queryOptions, useQuery } from "@tanstack/react-query";
import type { AnalyticsDto } from "@tranche/domain";
import { api } from "@/lib/api-client";

export const analyticsQuery = queryOptions({
  queryKey: ["analytics"] as const,
  queryFn: () => api<AnalyticsDto>("/analytics"),
});

export function useAnalytics() {
  return useQuery(analyticsQuery);
}
