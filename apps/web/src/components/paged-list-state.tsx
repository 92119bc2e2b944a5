import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { EmptyState, LoadError, Spinner } from "@/components/ui/feedback";

interface PagedState {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
  items: unknown[];
}

/**
 * A paged list's loading, error and empty states around its rows, and below them how many are shown and a button
 * for the next page (the server's keyset pages: the list never loads what nobody scrolls to).
 */
export function PagedListState({
  list,
  noun,
  empty,
  emptyHint,
  children,
}: {
  list: PagedState;
  /** Plural, e.g. "milestones" (one item drops the final s). */
  noun: string;
  empty: string;
  emptyHint?: ReactNode;
  children: ReactNode;
}) {
  if (list.isPending)
    return (
      <div className="flex justify-center py-12">
        <Spinner label={`Loading ${noun}`} />
      </div>
    );
  if (list.isError) return <LoadError title={`Could not load ${noun}`} error={list.error} onRetry={list.refetch} />;
  if (list.items.length === 0) return <EmptyState title={empty}>{emptyHint}</EmptyState>;
  return (
    <div className="grid gap-3">
      {children}
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-muted-foreground">
        <p aria-live="polite">
          Showing {list.items.length} {list.items.length === 1 ? noun.replace(/s$/, "") : noun}
          {list.hasNextPage ? "" : " (all)"}
        </p>
        {list.hasNextPage ? (
          <Button
            variant="outline"
            size="sm"
            disabled={list.isFetchingNextPage}
            onClick={() => void list.fetchNextPage()}
          >
            {list.isFetchingNextPage ? "Loading…" : `Show more ${noun}`}
          </Button>
        ) : null}
      </div>
    </div>
  );
}
