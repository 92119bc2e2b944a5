// The lists' pages: every list API answers { items, nextCursor } (keyset pagination); a list screen loads the first
// page and fetches the next when asked, with its filters, sort and search in the query key.
import { infiniteQueryOptions, type QueryKey, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { Page, StatusCountsDto } from "@tranche/domain";
import { api } from "./api-client";

export type ListParams = Record<string, string | undefined>;

/** `path` with `params` (empty ones left out) and the page's cursor as its query string. */
export function listPath(path: string, params: ListParams, cursor?: string): string {
  const query = new URLSearchParams(
    Object.entries({ ...params, cursor }).filter((entry): entry is [string, string] => Boolean(entry[1])),
  );
  return query.size ? `${path}?${query}` : path;
}

export function pagedQuery<T>(key: QueryKey, path: string, params: ListParams = {}) {
  return infiniteQueryOptions({
    queryKey: [...key, params],
    queryFn: ({ pageParam }) => api<Page<T>>(listPath(path, params, pageParam || undefined)),
    initialPageParam: "",
    getNextPageParam: (last: Page<T>) => last.nextCursor ?? undefined,
  });
}

/** A paged list's query with its loaded items flattened. */
export function usePagedList<T>(options: ReturnType<typeof pagedQuery<T>>, enabled = true) {
  const query = useInfiniteQuery({ ...options, enabled });
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
