import type { QueryClient } from "@tanstack/react-query";

// Projects, milestones, releases, the verifiers directory and the dashboards all show the same capital, counts and
// statuses: after a change to any of them, refetch every query of those resources (no page reload).
const AFFECTED = new Set(["projects", "milestones", "dashboard", "verifiers", "releases"]);

export function refreshCapitalData(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (query) => AFFECTED.has(String(query.queryKey[0])) });
}
