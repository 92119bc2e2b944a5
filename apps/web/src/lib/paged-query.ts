// The lists' pages: every list API answers { items, nextCursor } (keyset pagination); a list screen loads the first
// page and fetches the next when asked, with its filters, sort and search in the query key.
import { infiniteQueryOptions, type QueryKey, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { Page, StatusCountsDto } from "@tranche/domain";
import { api } from "./api-client";

export type ListParams = Record<string, string | undefined>;

/**
 * `path` with `params` (empty ones left out) and the page's cursor as its query string. The cursor goes in
 * `cursor`, or the parameter a list names it (a webhook's delivery log pages `before` a delivery).
 */
export function listPath(path: string, params: ListParams, cursor?: string, cursorParam = "cursor"): string {
  const query = new URLSearchParams(
    Object.entries({ ...params, [cursorParam]: cursor }).filter((entry): entry is [string, string] =>
      Boolean(entry[1]),
    ),
  );
  return query.size ? `${path}?${query}` : path;
}

export function pagedQuery<T>(key: QueryKey, path: string, params: ListParams = {}, cursorParam = "cursor") {
  return infiniteQueryOptions({
    queryKey: [...key, params],
    queryFn: ({ pageParam }) => api<Page<T>>(listPath(path, params, pageParam || undefined, cursorParam)),
    initialPageParam: "",
    getNextPageParam: (last: Page<T>) => last.nextCursor ?? undefined,
  });
}

/** A paged list's query with its loaded items flattened; `refetchInterval` as TanStack Query's, on the pages. */
export function usePagedList<T>(
  options: ReturnType<typeof pagedQuery<T>>,
  refetchInterval?: (pages: Page<T>[]) => number | false,
) {
  const query = useInfiniteQuery({
    ...options,
    refetchInterval: refetchInterval ? (query) => refetchInterval(query.state.data?.pages ?? []) : undefined,
  });
  const items = query.data?.pages.flatMap((page) => page.items) ?? [];
  return { ...query, items };
}

/**
 * How many items a list's filters match per status (`path`/counts, the same filters but the status): its tabs show
 * them. Kept under the list's key, so whatever refreshes the list refreshes them too.
 */
export function useStatusCounts<S extends string>(key: QueryKey, path: string, params: ListParams = {}) {
  return useQuery({
    queryKey: [...key, "counts", params],
    queryFn: () => api<StatusCountsDto<S>>(listPath(`${path}/counts`, params)),
  });
}
