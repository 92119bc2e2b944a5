import { formatCount } from "@tranche/domain";
import { useEffect, useRef } from "react";
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
  // The keyboard stays where it was: the button is only marked busy while a page loads (a disabled button drops
  // focus), and when the last page is in and the button goes, focus moves to what the footer now says.
  const status = useRef<HTMLParagraphElement>(null);
  const pressed = useRef(false);
  useEffect(() => {
    if (list.hasNextPage || !pressed.current) return;
    pressed.current = false;
    if (document.activeElement === document.body) status.current?.focus();
  }, [list.hasNextPage]);
  const showMore = () => {
    if (list.isFetchingNextPage) return;
    pressed.current = true;
    void list.fetchNextPage();
  };
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-muted-foreground">
      <p ref={status} tabIndex={-1} aria-live="polite" className="outline-none">
        {total === undefined
          ? `Showing ${countOf(shown, noun)}${list.hasNextPage ? "" : " (all)"}`
          : `Showing ${formatCount(shown)} of ${countOf(total, noun)}`}
      </p>
      {list.hasNextPage ? (
        <Button variant="outline" size="sm" aria-disabled={list.isFetchingNextPage || undefined} onClick={showMore}>
          {list.isFetchingNextPage ? "Loading…" : `Show more ${noun}`}
        </Button>
      ) : null}
    </div>
  );
}
