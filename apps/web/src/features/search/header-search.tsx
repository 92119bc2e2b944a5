// The header search: live suggestions (projects, milestones, people for admins) as you type, arrow keys to move,
// Enter to open the highlighted one; Enter with none highlighted opens the full results: the projects, or the
// milestones when only milestones match.
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { ROLE_LABELS, type SearchResultsDto } from "@tranche/domain";
import { FlagIcon, FolderKanbanIcon, type LucideIcon, SearchIcon, UserIcon } from "lucide-react";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { Input } from "@/components/ui/input";
import { api } from "@/lib/api-client";
import { cn } from "@/lib/utils";

interface Suggestion {
  key: string;
  group: string;
  icon: LucideIcon;
  label: string;
  detail: string;
  to: string;
}

function suggestions(data: SearchResultsDto | undefined): Suggestion[] {
  if (!data) return [];
  return [
    ...data.projects.map((p) => ({
      key: `p-${p.id}`,
      group: "Projects",
      icon: FolderKanbanIcon,
      label: p.name,
      detail: p.location,
      to: `/projects/${p.id}`,
    })),
    ...data.milestones.map((m) => ({
      key: `m-${m.id}`,
      group: "Milestones",
      icon: FlagIcon,
      label: m.title,
      detail: m.projectName,
      to: `/milestones/${m.id}`,
    })),
    ...data.people.map((u) => ({
      key: `u-${u.id}`,
      group: "People",
      icon: UserIcon,
      label: u.name,
      detail: `${u.email}${u.role ? ` · ${ROLE_LABELS[u.role]}` : ""}`,
      to: `/users#user-${u.id}`,
    })),
  ];
}

/** Where Enter with nothing highlighted leads: the list of what matched (milestones when no project did). */
function fullResults(data: SearchResultsDto | undefined, q: string): { to: string; what: string } {
  const milestones = !!data && data.projects.length === 0 && data.milestones.length > 0;
  const list = milestones ? "/milestones" : "/projects";
  return { to: q ? `${list}?${new URLSearchParams({ q })}` : list, what: milestones ? "milestones" : "projects" };
}

const searchQuery = (q: string) => ({
  queryKey: ["search", q],
  queryFn: () => api<SearchResultsDto>(`/search?${new URLSearchParams({ q })}`),
  staleTime: 30_000,
});

/** The term once typing pauses, so each keystroke does not cost a request. */
function useSettled(value: string, ms = 200) {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** `inline`: the suggestions push the content below down instead of floating over it (in the phone's drawer). */
export function HeaderSearch({ inline = false }: { inline?: boolean }) {
  const navigate = useNavigate();
  const id = useId();
  const listId = `${id}-list`;
  const inputRef = useRef<HTMLInputElement>(null);
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const [chosen, setActive] = useState(-1);
  const term = useSettled(text.trim());
  const queryClient = useQueryClient();
  const query = useQuery({ ...searchQuery(term), enabled: term.length >= 2, placeholderData: keepPreviousData });
  const items = useMemo(() => (term.length >= 2 ? suggestions(query.data) : []), [term, query.data]);
  const expanded = open && term.length >= 2;
  // New suggestions may be fewer than the highlighted position.
  const active = chosen < items.length ? chosen : -1;

  const go = (to: string) => {
    setOpen(false);
    setText("");
    inputRef.current?.blur();
    navigate(to);
  };

  return (
    <form
      className="relative"
      onSubmit={async (event) => {
        event.preventDefault();
        // A highlighted suggestion opens; otherwise the full list of what matched.
        const highlighted = items[active];
        if (highlighted) return go(highlighted.to);
        // Judged by the results for what was typed (already fetched once typing paused), never by the previous
        // term's still on screen: Enter right after typing "Mojave" over "panel" had opened the milestones.
        const q = text.trim();
        const data = q.length >= 2 ? await queryClient.fetchQuery(searchQuery(q)).catch(() => undefined) : undefined;
        go(fullResults(data, q).to);
      }}
    >
      {/* Centred on the 40 px field, not on the form, which grows by the suggestions below it. */}
      <SearchIcon className="pointer-events-none absolute left-3 top-3 size-4 text-slate-500" aria-hidden />
      <Input
        ref={inputRef}
        type="search"
        name="q"
        maxLength={200}
        placeholder="Search..."
        aria-label="Search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? `${id}-${active}` : undefined}
        autoComplete="off"
        className="pl-9"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown" && items.length > 0) {
            e.preventDefault();
            setOpen(true);
            setActive((active + 1) % items.length);
          } else if (e.key === "ArrowUp" && items.length > 0) {
            e.preventDefault();
            setActive(active <= 0 ? items.length - 1 : active - 1);
          } else if (e.key === "Escape" && expanded) {
            // The first Escape only closes the suggestions: the text stays (the browser would clear a search
            // field) and the phone's menu around the field stays open. A second Escape does the rest.
            e.preventDefault();
            setOpen(false);
            setActive(-1);
          }
        }}
      />
      {expanded ? (
        <div
          className={cn(
            "mt-1 max-h-96 overflow-y-auto rounded-md border bg-white py-1",
            inline ? "" : "absolute inset-x-0 top-full z-40 shadow-lg",
          )}
        >
          <div id={listId} role="listbox" aria-label="Suggestions">
            {items.map((item, index) => (
              <div
                key={item.key}
                id={`${id}-${index}`}
                role="option"
                tabIndex={-1}
                aria-selected={index === active}
                // Chosen on mouse down, before the input's blur closes the list.
                onMouseDown={(e) => {
                  e.preventDefault();
                  go(item.to);
                }}
                onMouseEnter={() => setActive(index)}
                className={cn(
                  "flex cursor-pointer items-center gap-3 px-3 py-2 text-sm",
                  index === active ? "bg-slate-100" : "",
                )}
              >
                <item.icon className="size-4 shrink-0 text-slate-500" aria-hidden />
                <span className="min-w-0">
                  <span className="block truncate font-medium text-slate-900" title={item.label}>
                    {item.label}
                  </span>
                  <span className="block truncate text-xs text-muted-foreground">
                    {item.group} · {item.detail}
                  </span>
                </span>
              </div>
            ))}
          </div>
          {items.length === 0 ? (
            <p className="px-3 py-2 text-sm text-muted-foreground" role="status">
              {query.isFetching ? "Searching…" : `Nothing matches "${term}". Press Enter to search all projects.`}
            </p>
          ) : (
            <p className="border-t px-3 py-2 text-xs text-muted-foreground">
              Press Enter for all matching {fullResults(query.data, term).what}.
            </p>
          )}
        </div>
      ) : null}
    </form>
  );
}
