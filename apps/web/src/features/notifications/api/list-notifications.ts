import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import type { NotificationDto, Page } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { notificationKeys } from "./unread-count";

const PAGE_SIZE = 30;

export function getNotifications(cursor: string | null) {
  const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (cursor) query.set("cursor", cursor);
  return api<Page<NotificationDto>>(`/notifications?${query}`);
}

export const notificationsQuery = infiniteQueryOptions({
  queryKey: notificationKeys.list(),
  queryFn: ({ pageParam }) => getNotifications(pageParam),
  initialPageParam: null as string | null,
  getNextPageParam: (last) => last.nextCursor,
});

/** SPEC.md §2.10: the list is refetched every time the page opens. */
export function useNotifications() {
  return useInfiniteQuery({ ...notificationsQuery, refetchOnMount: "always" });
}
