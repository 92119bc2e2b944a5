import type { ProjectSort, ProjectStatus, Role } from "@tranche/domain";
import { SearchIcon, XIcon } from "lucide-react";
import { useEffect } from "react";
import { PagedListState } from "@/components/paged-list-state";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { toast } from "@/components/ui/toaster";
import { errorMessage } from "@/lib/api-client";
import { useUrlState } from "@/lib/use-url-state";
import { useProjectCounts, useProjects } from "../api/get-projects";
import { NewProjectDialog } from "./new-project-dialog";
import { ProjectGrid, ProjectList } from "./project-list";

/**
 * The dashboard's Projects tab: 'Project Management' card with the list and, for creators, 'New Project'.
 * With `search` (the header search on /projects) only the matching projects are listed.
 */
export function ProjectManagement({
  role,
  search = "",
  onClearSearch,
}: {
  role: Role | null | undefined;
  search?: string;
  onClearSearch?: () => void;
}) {
  // The status tab and the sort live in the URL (?status=…&sort=…), so a link reproduces the view.
  const [view, setView] = useUrlState({ status: "all", sort: "newest" });
  const status = view.status === "all" ? undefined : (view.status as ProjectStatus);
  const projects = useProjects({ q: search || undefined, status, sort: view.sort as ProjectSort });
  const counts = useProjectCounts({ q: search || undefined });
  const canCreate = role === "project_owner" || role === "admin";

  useEffect(() => {
    if (projects.error) toast.error("Error loading projects", errorMessage(projects.error, "Failed to load projects"));
  }, [projects.error]);

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4">
        <div className="grid gap-1.5">
          <CardTitle className="text-xl">Project Management</CardTitle>
          <CardDescription>Create, track and manage your projects</CardDescription>
        </div>
        {canCreate ? <NewProjectDialog /> : null}
      </CardHeader>
      <CardContent>
        {search ? (
          <div className="mb-4 flex flex-wrap items-center gap-2 rounded-md bg-muted px-3 py-2 text-sm text-slate-700">
            <SearchIcon className="size-4 shrink-0 text-slate-500" aria-hidden />
            <p className="min-w-0 break-words" data-testid="search-term">
              Results for <strong className="font-semibold text-slate-900">“{search}”</strong>
            </p>
            {onClearSearch ? (
              <Button variant="ghost" size="sm" className="ml-auto h-8" onClick={onClearSearch}>
                <XIcon aria-hidden /> Clear search
              </Button>
            ) : null}
          </div>
        ) : null}
        <ProjectList
          filter={view.status}
          onFilterChange={(value) => setView({ status: value })}
          sort={view.sort as ProjectSort}
          onSortChange={(value) => setView({ sort: value })}
          search={search || undefined}
          counts={counts.data}
        >
          <PagedListState
            list={projects}
            noun="projects"
            // The tab's own count: "Showing 25 of 32 projects" while more pages wait.
            total={status ? counts.data?.byStatus[status] : counts.data?.total}
            empty="No projects found"
            emptyHint={search ? `No project's name, description or location contains “${search}”.` : undefined}
          >
            <ProjectGrid projects={projects.items} />
          </PagedListState>
        </ProjectList>
      </CardContent>
    </Card>
  );
}
