import type { MilestoneListItemDto, MilestoneSort, MilestoneStatus } from "@tranche/domain";
import { pagedQuery, usePagedList, useStatusCounts } from "@/lib/paged-query";
import { milestoneKeys } from "./keys";

export interface MilestoneFilters {
  status?: MilestoneStatus;
  mine?: "true";
  assigned?: "true";
  dueBefore?: string;
  projectId?: string;
  /** Matches the title. */
  q?: string;
  sort?: MilestoneSort;
}

export const milestonesQuery = (filters: MilestoneFilters = {}) =>
  pagedQuery<MilestoneListItemDto>(milestoneKeys.lists, "/milestones", { ...filters });

/** The signed-in user's milestones across the projects they may see, a page at a time. */
export function useMilestones(filters: MilestoneFilters = {}) {
  return usePagedList(milestonesQuery(filters));
}

/** How many milestones the filters match, per status (the list's tabs). */
export function useMilestoneCounts(filters: Omit<MilestoneFilters, "status" | "sort"> = {}) {
  return useStatusCounts<MilestoneStatus>(milestoneKeys.lists, "/milestones", { ...filters });
}
