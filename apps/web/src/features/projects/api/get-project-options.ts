import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { Page, ProjectSummaryDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { listPath } from "@/lib/paged-query";
import { projectKeys } from "./keys";

/** How many projects a picker offers at once; past that, it offers a search. */
export const PROJECT_OPTIONS = 50;

/**
 * Projects to choose from, by name: the first PROJECT_OPTIONS whose name contains `search` (the server's search),
 * so that a portfolio of any size can be picked from. `more`: there may be others, which a search would find.
 */
export function useProjectOptions(search: string) {
  const query = useQuery({
    queryKey: [...projectKeys.lists, "options", search],
    queryFn: () =>
      api<Page<ProjectSummaryDto>>(
        listPath("/projects", { sort: "name", limit: String(PROJECT_OPTIONS), q: search || undefined }),
      ),
    placeholderData: keepPreviousData,
  });
  return { ...query, options: query.data?.items ?? [], more: Boolean(query.data?.nextCursor) };
}
