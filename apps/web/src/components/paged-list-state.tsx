import type { ReactNode } from "react";
import { type PagedList, PagingFooter } from "@/components/paging-footer";
import { EmptyState, LoadError, Spinner } from "@/components/ui/feedback";

interface PagedState extends PagedList {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/** A paged list's loading, error and empty states around its rows, and below them the paging footer. */
export function PagedListState({
  list,
  noun,
  empty,
  emptyHint,
  total,
  children,
}: {
  list: PagedState;
  /** Plural, e.g. "milestones" (one item drops the final s). */
  noun: string;
  empty: string;
  emptyHint?: ReactNode;
  /** How many items there are in all, when the server says. */
  total?: number;
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
    <div className="grid min-w-0 gap-3">
      {children}
      <PagingFooter list={list} noun={noun} total={total} />
    </div>
  );
}
