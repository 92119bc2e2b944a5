import {
  PROJECT_STATUSES,
  type ProjectSort,
  type ProjectStatus,
  type ProjectSummaryDto,
  type StatusCountsDto,
} from "@tranche/domain";
import type { ReactNode } from "react";
import { ExportCsvLink } from "@/components/export-csv-link";
import { SelectFilter } from "@/components/select-filter";
import { TabCount } from "@/components/tab-count";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { ProjectCard } from "./project-card";

const FILTERS: { value: string; label: string }[] = [
  { value: "all", label: "All Projects" },
  { value: "pending_verification", label: "Pending" },
  { value: "verified", label: "Verified" },
  { value: "funded", label: "Funded" },
  { value: "at_risk", label: "At Risk" },
];

const SORTS: { value: ProjectSort; label: string }[] = [
  { value: "newest", label: "Newest first" },
  { value: "name", label: "Name (A–Z)" },
  { value: "next_due", label: "Next milestone due" },
  { value: "activity", label: "Latest activity" },
];

/** Five filter tabs (applied by the server, each with its count) and a sort over the grid of project cards. */
export function ProjectList({
  filter,
  onFilterChange,
  sort,
  onSortChange,
  search,
  counts,
  children,
}: {
  filter: string;
  onFilterChange: (filter: string) => void;
  sort: ProjectSort;
  onSortChange: (sort: ProjectSort) => void;
  /** The search the list was loaded with, so the export matches it. */
  search?: string;
  /** How many projects each tab holds (under the search), once known. */
  counts?: StatusCountsDto<ProjectStatus>;
  children: ReactNode;
}) {
  const status = (PROJECT_STATUSES as readonly string[]).includes(filter) ? filter : undefined;
  return (
    <Tabs value={status ?? "all"} onValueChange={onFilterChange}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <TabsList aria-label="Filter projects by status" className="h-auto flex-wrap">
          {FILTERS.map((f) => (
            <TabsTrigger key={f.value} value={f.value}>
              {f.label}
              <TabCount count={f.value === "all" ? counts?.total : counts?.byStatus[f.value as ProjectStatus]} />
            </TabsTrigger>
          ))}
        </TabsList>
        <div className="flex flex-wrap items-center gap-2">
          <SelectFilter label="Sort" value={sort} options={SORTS} onChange={onSortChange} />
          <ExportCsvLink path="/api/projects/export.csv" filters={{ status, q: search, sort }} />
        </div>
      </div>
      {/* The list is the selected tab's panel: each tab controls the element it names (aria-controls). */}
      <TabsContent value={status ?? "all"} className="mt-4">
        {children}
      </TabsContent>
    </Tabs>
  );
}

/** A 1/2/3-column grid of project cards. */
export function ProjectGrid({ projects }: { projects: ProjectSummaryDto[] }) {
  return (
    <div className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3">
      {projects.map((project) => (
        <ProjectCard key={project.id} project={project} />
      ))}
    </div>
  );
}
