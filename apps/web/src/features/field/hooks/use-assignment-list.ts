import { type FieldAssignmentDto, LIST_PAGE_SIZE } from "@tranche/domain";
import { useCallback, useEffect, useMemo, useState } from "react";
import type { PagedList } from "@/components/paging-footer";

/** What the list shows: the search typed, and how many of the assignments that match it. */
interface View {
  search: string;
  shown: number;
}

const FIRST_PAGE: View = { search: "", shown: LIST_PAGE_SIZE };

/**
 * Each person's view, for as long as the page lives: an assignment's page links back to /field (a new page), and the
 * list should show what it showed when the verifier left it. Not in the URL: offline, the service worker answers
 * only /field itself with the app (Workbox matches path and query, so /field?q=… would fail with no signal). Not on
 * the device either: the store keeps nothing in the clear but ids, kinds, statuses and times (ADR 021).
 */
const views = new Map<string, View>();

/** Lower case, accents dropped: "sao" finds "São Paulo" on a phone keyboard. */
const fold = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/**
 * The assignments whose title, project or place contains every word of the search, in the list's order. The field
 * answer carries no milestone description (the Pending tab's search has one), so the place stands in for it.
 */
export function matchingAssignments(items: FieldAssignmentDto[], search: string): FieldAssignmentDto[] {
  const words = fold(search).split(/\s+/).filter(Boolean);
  if (words.length === 0) return items;
  return items.filter((a) => {
    const text = fold(`${a.title}\n${a.projectName}\n${a.location}`);
    return words.every((word) => text.includes(word));
  });
}

/**
 * The field list a page at a time, searched on the device: the whole list is fetched and kept as before (so search
 * works with no signal and every assignment stays reachable offline), but only the first pages are drawn — 891
 * cards were 13,000 elements and seconds of rendering on a phone.
 */
export function useAssignmentList(userId: string, items: FieldAssignmentDto[]) {
  const [view, setView] = useState(() => views.get(userId) ?? FIRST_PAGE);
  useEffect(() => {
    views.set(userId, view);
  }, [userId, view]);
  const matches = useMemo(() => matchingAssignments(items, view.search), [items, view.search]);
  // Stable: the search box restarts its wait for typing to stop whenever this changes.
  const setSearch = useCallback((search: string) => setView({ search, shown: LIST_PAGE_SIZE }), []);
  const visible = matches.slice(0, view.shown);
  const list: PagedList = {
    items: visible,
    hasNextPage: visible.length < matches.length,
    // Nothing to fetch: the next page is already on the device.
    isFetchingNextPage: false,
    fetchNextPage: () => setView((v) => ({ ...v, shown: v.shown + LIST_PAGE_SIZE })),
  };
  return {
    search: view.search,
    /** A new search starts again at its first page. */
    setSearch,
    visible,
    total: matches.length,
    list,
  };
}
