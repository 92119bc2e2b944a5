import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import type { NotificationCategory, NotificationDto, Page } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { listPath } from "@/lib/paged-query";
import { notificationKeys } from "./unread-count";

const PAGE_SIZE = 30;

export interface NotificationFilters {
  unread?: boolean;
  category?: NotificationCategory;
}

export function getNotifications(cursor: string | null, filters: NotificationFilters = {}) {
  const params = { limit: String(PAGE_SIZE), unread: filters.unread ? "true" : undefined, category: filters.category };
  return api<Page<NotificationDto>>(listPath("/notifications", params, cursor ?? undefined));
}

export const notificationsQuery = (filters: NotificationFilters = {}) =>
  infiniteQueryOptions({
    queryKey: [...notificationKeys.list(), filters],
    queryFn: ({ pageParam }) => getNotifications(pageParam, filters),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

/** The list is refetched every time the page opens. The filters are applied by the server. */
export function useNotifications(filters: NotificationFilters = {}) {
  return useInfiniteQuery({ ...notificationsQuery(filters), refetchOnMount: "always" });
}
