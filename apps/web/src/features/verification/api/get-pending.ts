import type { VerifierQueueDto, VerifierQueueItemDto, VerifierQueuePageDto } from "@tranche/domain";
import { pagedQuery, usePagedList } from "@/lib/paged-query";
import { verificationKeys } from "./keys";

/**
 * What waits on the signed-in verifier, earliest due first, a page at a time; `q` matches title or description.
 * Unsearched, its first page is the one the queue already holds (`queue`, fetched at `queueUpdatedAt`).
 */
export function usePendingVerifications(q: string, queue: VerifierQueueDto, queueUpdatedAt: number) {
  const held: VerifierQueuePageDto = {
    items: queue.pending,
    nextCursor: queue.pendingNextCursor,
    total: queue.counts.pending,
  };
  const list = usePagedList({
    ...pagedQuery<VerifierQueueItemDto>(verificationKeys.pending(), "/verifications/pending", { q: q || undefined }),
    ...(q
      ? {}
      : {
          initialData: {
            pages: [held],
            pageParams: [""],
          },
          initialDataUpdatedAt: queueUpdatedAt,
        }),
  });
  const first = list.data?.pages[0] as VerifierQueuePageDto | undefined;
  return { ...list, total: first?.total };
}
