import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import type { Page, PublicRequestDto } from "@tranche/domain";
import { api } from "@/lib/api-client";

export const publicRequestKeys = { all: ["public-requests"] as const };

export const publicRequestsQuery = infiniteQueryOptions({
  queryKey: publicRequestKeys.all,
  queryFn: ({ pageParam }) =>
    api<Page<PublicRequestDto>>(
      `/public-requests?limit=50${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ""}`,
    ),
  initialPageParam: null as string | null,
  getNextPageParam: (last) => last.nextCursor,
});

/** Inbound requests from the public forms, newest first (admins only). */
export function usePublicRequests() {
  return useInfiniteQuery(publicRequestsQuery);
}
