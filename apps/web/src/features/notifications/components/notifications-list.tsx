import { LIMITS, NOTIFICATION_CATEGORIES, type NotificationCategory, type NotificationDto } from "@tranche/domain";
import { formatDistanceToNow } from "date-fns";
import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { PagingFooter } from "@/components/paging-footer";
import { SelectFilter } from "@/components/select-filter";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState, LoadError, Skeleton } from "@/components/ui/feedback";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { toast } from "@/components/ui/toaster";
import { useDocumentTitle } from "@/lib/document-title";
import { useUrlState } from "@/lib/use-url-state";
import { cn } from "@/lib/utils";
import { useNotifications } from "../api/list-notifications";
import { useMarkAllNotificationsRead } from "../api/mark-all-read";
import { useMarkNotificationRead } from "../api/mark-read";
import { useUnreadCount } from "../api/unread-count";
import { CategoryChip } from "./category-chip";

const CATEGORY_OPTIONS = [
  { value: "all", label: "All categories" },
  ...NOTIFICATION_CATEGORIES.map((c) => ({ value: c, label: c[0].toUpperCase() + c.slice(1) })),
];

/**
 * The notification list with mark one / mark all. Unread-only and the category are filters of the
 * server's, kept in the URL (?show=unread&category=…) so a link reproduces the view.
 */
export function NotificationsList() {
  useDocumentTitle("Notifications");
  const [view, setView] = useUrlState({ show: "all", category: "all" });
  const unreadOnly = view.show === "unread";
  const category = (NOTIFICATION_CATEGORIES as readonly string[]).includes(view.category)
    ? (view.category as NotificationCategory)
    : undefined;
  const list = useNotifications({ unread: unreadOnly, category });
  const { data: unread = 0 } = useUnreadCount();
  const markAll = useMarkAllNotificationsRead();
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  const anyUnread = unread > 0 || items.some((n) => !n.read);

  // "Mark as read" goes once its item is read (and under Unread the item goes too): focus then moves to the item's
  // first control (its View link) or the item, or under Unread to the item that took its place, instead of falling
  // to the page's start.
  const listRef = useRef<HTMLUListElement>(null);
  const marking = useRef<{ id: string; index: number } | null>(null);
  useEffect(() => {
    const marked = marking.current;
    if (!marked) return;
    const index = items.findIndex((n) => n.id === marked.id);
    if (index >= 0 && !items[index].read) return;
    marking.current = null;
    const rows = listRef.current?.querySelectorAll<HTMLElement>("[data-testid=notification-item]");
    const row = rows?.[index >= 0 ? index : Math.min(marked.index, rows.length - 1)];
    (row?.querySelector<HTMLElement>("a, button") ?? row)?.focus();
  }, [items]);

  useEffect(() => {
    if (list.isError) toast.error("Error", "Failed to load notifications. Please try again later.");
  }, [list.isError]);

  // Marked busy, not disabled, when there is nothing to mark: a disabled button drops the keyboard's focus to the
  // page's start the moment everything is read.
  const cannotMarkAll = list.isPending || !anyUnread || markAll.isPending;
  const onMarkAll = () => {
    if (cannotMarkAll) return;
    markAll.mutate(undefined, {
      onSuccess: () => toast.success("Success", "All notifications marked as read"),
      onError: () => toast.error("Error", "Failed to update notifications. Please try again."),
    });
  };

  return (
    // The list is the selected tab's panel: each tab controls the element it names (aria-controls).
    <Tabs value={unreadOnly ? "unread" : "all"} onValueChange={(show) => setView({ show })} className="grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl">Notifications</h1>
        <Button variant="outline" onClick={onMarkAll} aria-disabled={cannotMarkAll || undefined}>
          Mark all as read
        </Button>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <TabsList aria-label="Show notifications">
          <TabsTrigger value="all">All</TabsTrigger>
          <TabsTrigger value="unread">Unread</TabsTrigger>
        </TabsList>
        <SelectFilter
          label="Category"
          value={category ?? "all"}
          options={CATEGORY_OPTIONS}
          onChange={(value) => setView({ category: value })}
        />
      </div>
      <TabsContent value={unreadOnly ? "unread" : "all"} className="mt-0 grid gap-6">
        {list.isPending ? (
          <div className="grid gap-3" role="status" aria-busy="true" aria-label="Loading notifications">
            {Array.from({ length: LIMITS.notificationSkeletonRows }, (_, i) => (
              <Skeleton key={i} data-testid="notification-skeleton" className="h-24 w-full" />
            ))}
          </div>
        ) : list.isError ? (
          <LoadError title="Could not load notifications" error={list.error} onRetry={list.refetch} />
        ) : items.length === 0 ? (
          <EmptyState title="No notifications">
            {category ? "No notification in this category." : "You're all caught up!"}
          </EmptyState>
        ) : (
          <>
            <ul ref={listRef} className="grid gap-3" aria-label="Notifications">
              {items.map((item, index) => (
                <NotificationItem
                  key={item.id}
                  item={item}
                  onMarking={(done) => {
                    marking.current = done ? { id: item.id, index } : null;
                  }}
                />
              ))}
            </ul>
            <PagingFooter list={{ ...list, items }} noun="notifications" />
          </>
        )}
      </TabsContent>
    </Tabs>
  );
}

function NotificationItem({
  item,
  onMarking,
}: {
  item: NotificationDto;
  /** Told when the item's own "Mark as read" is pressed (true) and when that fails (false). */
  onMarking?: (pressed: boolean) => void;
}) {
  const markRead = useMarkNotificationRead();
  const onMarkRead = () =>
    markRead.mutate(item.id, {
      onError: () => {
        onMarking?.(false);
        toast.error("Error", "Failed to update notification. Please try again.");
      },
    });
  return (
    <li>
      <Card
        data-testid="notification-item"
        data-read={item.read}
        tabIndex={-1}
        className={cn(
          "p-4 focus-visible:outline-2 focus-visible:outline-ring sm:p-5",
          !item.read && "border-blue-200 bg-blue-50/70",
        )}
      >
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-center gap-2">
              {!item.read ? <span className="size-2 shrink-0 rounded-full bg-blue-600" aria-hidden /> : null}
              <h2 className={cn("text-base text-slate-900", item.read ? "font-medium" : "font-semibold")}>
                {item.title}
                {!item.read ? <span className="sr-only"> (unread)</span> : null}
              </h2>
              <CategoryChip category={item.category} />
            </div>
            <p className="mt-1 text-xs text-muted-foreground">
              <time dateTime={item.createdAt}>
                {formatDistanceToNow(new Date(item.createdAt), { addSuffix: true })}
              </time>
            </p>
            <p className="mt-2 text-sm text-slate-700">{item.message}</p>
          </div>
          <div className="flex shrink-0 gap-2">
            {!item.read ? (
              <Button
                size="sm"
                variant="outline"
                onClick={() => {
                  onMarking?.(true);
                  onMarkRead();
                }}
                disabled={markRead.isPending}
              >
                Mark as read
              </Button>
            ) : null}
            {item.link ? (
              <Button size="sm" variant="ghost" asChild>
                <Link to={item.link} onClick={item.read ? undefined : onMarkRead}>
                  View
                </Link>
              </Button>
            ) : null}
          </div>
        </div>
      </Card>
    </li>
  );
}
