import type { ProjectStatus, ProjectSummaryDto } from "@tranche/domain";
import { type ReactNode, useState } from "react";
import { ExportCsvLink } from "@/components/export-csv-link";
import { EmptyState } from "@/components/ui/feedback";
import { Tabs, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { ProjectCard } from "./project-card";

const FILTERS: { value: "all" | ProjectStatus; label: string }[] = [
  { value: "all", label: "All Projects" },
  { value: "pending_verification", label: "Pending" },
  { value: "verified", label: "Verified" },
  { value: "funded", label: "Funded" },
  { value: "at_risk", label: "At Risk" },
];

/** SPEC.md §2.6: five filter tabs over a 1/2/3-column grid of project cards. */
export function ProjectList({
  projects,
  emptyHint,
  search,
}: {
  projects: ProjectSummaryDto[];
  emptyHint?: ReactNode;
  /** The search the list was loaded with, so the export matches it. */
  search?: string;
}) {
  const [filter, setFilter] = useState<(typeof FILTERS)[number]["value"]>("all");
  const shown = filter === "all" ? projects : projects.filter((p) => p.status === filter);
  return (
    <Tabs value={filter} onValueChange={(value) => setFilter(value as typeof filter)}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <TabsList aria-label="Filter projects by status" className="h-auto flex-wrap">
          {FILTERS.map((f) => (
            <TabsTrigger key={f.value} value={f.value}>
              {f.label}
            </TabsTrigger>
          ))}
        </TabsList>
        <ExportCsvLink
          path="/api/projects/export.csv"
          filters={{ status: filter === "all" ? undefined : filter, q: search }}
        />
      </div>
      <div className="mt-4">
        {shown.length === 0 ? (
          <EmptyState title="No projects found">{emptyHint}</EmptyState>
        ) : (
          <div className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3">
            {shown.map((project) => (
              <ProjectCard key={project.id} project={project} />
            ))}
          </div>
        )}
      </div>
    </Tabs>
  );
}
