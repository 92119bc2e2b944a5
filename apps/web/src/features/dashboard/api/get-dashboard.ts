import { queryOptions, useQuery } from "@tanstack/react-query";
import type { DashboardDto } from "@tranche/domain";
import { api } from "@/lib/api-client";

export const dashboardKeys = { all: ["dashboard"] as const, mine: () => [...dashboardKeys.all, "mine"] as const };

export const dashboardQuery = queryOptions({
  queryKey: dashboardKeys.mine(),
  queryFn: () => api<DashboardDto>("/dashboard"),
});

export function useDashboard() {
  return useQuery(dashboardQuery);
}
