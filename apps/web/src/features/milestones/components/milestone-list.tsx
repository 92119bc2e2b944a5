import { useQuery } from "@tanstack/react-query";
import { formatStatus, MILESTONE_STATUSES, type MilestoneSort, type MilestoneStatus } from "@tranche/domain";
import { useEffect, useState } from "react";
import { ExportCsvLink } from "@/components/export-csv-link";
import { ListSearch } from "@/components/list-search";
import { PagedListState } from "@/components/paged-list-state";
import { SelectFilter } from "@/components/select-filter";
import { TabCount } from "@/components/tab-count";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { toast } from "@/components/ui/toaster";
import { projectQuery, useProjectOptions } from "@/features/projects";
import { errorMessage } from "@/lib/api-client";
import { useUrlState } from "@/lib/use-url-state";
import { useMilestoneCounts, useMilestones } from "../api/get-milestones";
import { MilestoneTable } from "./milestone-table";

/**
 * Narrows the list to one of the caller's projects, or all of them: the first projects by name, and a search for the
 * others when there are more than a picker offers.
 */
function ProjectPicker({ value, onChange }: { value: string; onChange: (projectId: string) => void }) {
  const [search, setSearch] = useState("");
  const projects = useProjectOptions(search);
  // The chosen project stays an option when a search (or the first page) leaves it out.
  const chosen = useQuery({ ...projectQuery(value), enabled: Boolean(value) });
  const listed = projects.options.some((p) => p.id === value);
  const options = [
    { value: "", label: "All projects" },
    ...(value && !listed && chosen.data ? [{ value, label: chosen.data.name }] : []),
    ...projects.options.map((p) => ({ value: p.id, label: p.name })),
  ];
  return (
    <>
      {projects.more || search ? <ListSearch label="Find a project" value={search} onSearch={setSearch} /> : null}
      <SelectFilter label="Project" value={value} options={options} onChange={onChange} />
    </>
  );
}

const SORTS: { value: MilestoneSort; label: string }[] = [
  { value: "due", label: "Earliest due" },
  { value: "newest", label: "Newest first" },
  { value: "amount", label: "Largest amount" },
];

/**
 * The caller's milestones across every project they may see, a page at a time: status tabs (with their counts),
 * search and sort are the server's and live in the URL (?status=…&q=…&sort=…),
 * so a link reproduces the view; the export follows them.
 */
export function MilestoneList({ projectPicker = false }: { projectPicker?: boolean } = {}) {
  const [view, setView] = useUrlState({ status: "all", q: "", sort: "due", project: "" });
  const projectId = projectPicker && view.project ? view.project : undefined;
  const status = (MILESTONE_STATUSES as readonly string[]).includes(view.status)
    ? (view.status as MilestoneStatus)
    : undefined;
  const sort = view.sort as MilestoneSort;
  const milestones = useMilestones({ status, q: view.q || undefined, sort, projectId });
  const counts = useMilestoneCounts({ q: view.q || undefined, projectId }).data;

  useEffect(() => {
    if (milestones.error) toast.error("Error loading milestones", errorMessage(milestones.error));
  }, [milestones.error]);

  return (
    // The filtered list is the selected tab's panel: each tab controls the element it names (aria-controls).
    <Tabs value={status ?? "all"} onValueChange={(value) => setView({ status: value })} className="grid gap-4">
      <TabsList aria-label="Filter milestones by status" className="h-auto flex-wrap">
        <TabsTrigger value="all">
          All
          <TabCount count={counts?.total} />
        </TabsTrigger>
        {MILESTONE_STATUSES.map((s) => (
          <TabsTrigger key={s} value={s}>
            {formatStatus(s)}
            <TabCount count={counts?.byStatus[s]} />
          </TabsTrigger>
        ))}
      </TabsList>
      <div className="flex flex-wrap items-center gap-2">
        {projectPicker ? <ProjectPicker value={view.project} onChange={(project) => setView({ project })} /> : null}
        <ListSearch label="Search milestones by title" value={view.q} onSearch={(q) => setView({ q })} />
        <SelectFilter label="Sort" value={sort} options={SORTS} onChange={(value) => setView({ sort: value })} />
        <div className="ml-auto">
          <ExportCsvLink
            path="/api/milestones/export.csv"
            filters={{ status, q: view.q || undefined, projectId, sort }}
          />
        </div>
      </div>
      <TabsContent value={status ?? "all"} className="mt-0">
        <PagedListState
          list={milestones}
          noun="milestones"
          // The tab's own count: "Showing 25 of 30 milestones" while more pages wait.
          total={status ? counts?.byStatus[status] : counts?.total}
          empty="No milestones found"
          emptyHint={view.q ? `No milestone title contains “${view.q}”.` : undefined}
        >
          <MilestoneTable
            milestones={milestones.items}
            sort={sort}
            onSortChange={(value) => setView({ sort: value })}
          />
        </PagedListState>
      </TabsContent>
    </Tabs>
  );
}
