import { queryOptions, useQuery } from "@tanstack/react-query";
import type { MilestoneListItemDto, MilestoneStatus } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { milestoneKeys } from "./keys";

export interface MilestoneFilters {
  status?: MilestoneStatus;
  mine?: "true";
  assigned?: "true";
  dueBefore?: string;
}

export const milestonesQuery = (filters: MilestoneFilters = {}) =>
  queryOptions({
    queryKey: milestoneKeys.list({ ...filters }),
    queryFn: () => {
      const params = new URLSearchParams(
        Object.entries(filters).filter((entry): entry is [string, string] => Boolean(entry[1])),
      );
      const query = params.size ? `?${params}` : "";
      return api<MilestoneListItemDto[]>(`/milestones${query}`);
    },
  });

/** The signed-in user's milestones across the projects they may see. */
export function useMilestones(filters: MilestoneFilters = {}) {
  return useQuery(milestonesQuery(filters));
}
