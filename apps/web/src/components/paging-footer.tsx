import { formatCount } from "@tranche/domain";
import { Button } from "@/components/ui/button";

/** What a paged list needs to say how much it shows and to fetch the next page (TanStack Query's infinite query). */
export interface PagedList {
  items: unknown[];
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/** "1 milestone" / "3 milestones": `noun` is the plural, one item drops its final s. */
export const countOf = (count: number, noun: string) =>
  `${formatCount(count)} ${count === 1 ? noun.replace(/s$/, "") : noun}`;

/**
 * The one paging footer of every list: how many items are shown (of how many, when the server counts them), and a
 * button for the next page (the server's keyset pages: the list never loads what nobody scrolls to).
 */
export function PagingFooter({ list, noun, total }: { list: PagedList; noun: string; total?: number }) {
  const shown = list.items.length;
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-muted-foreground">
      <p aria-live="polite">
        {total === undefined
          ? `Showing ${countOf(shown, noun)}${list.hasNextPage ? "" : " (all)"}`
          : `Showing ${formatCount(shown)} of ${countOf(total, noun)}`}
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
  );
}
