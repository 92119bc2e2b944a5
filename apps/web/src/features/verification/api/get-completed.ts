import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import type { Page, VerifierQueueItemDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { verificationKeys } from "./keys";

const PAGE_SIZE = 20;

export const completedVerificationsQuery = infiniteQueryOptions({
  queryKey: verificationKeys.completed(),
  queryFn: ({ pageParam }) =>
    api<Page<VerifierQueueItemDto> & { total: number }>(
      `/verifications/completed?limit=${PAGE_SIZE}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ""}`,
    ),
  initialPageParam: null as string | null,
  getNextPageParam: (last) => last.nextCursor,
});

/** Every decision the signed-in verifier made, newest first, a page at a time. */
export function useCompletedVerifications() {
  return useInfiniteQuery(completedVerificationsQuery);
}
