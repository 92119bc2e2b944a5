import type { Role } from "@tranche/domain";
import { useEffect } from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/feedback";
import { toast } from "@/components/ui/toaster";
import { errorMessage } from "@/lib/api-client";
import { useProjects } from "../api/get-projects";
import { NewProjectDialog } from "./new-project-dialog";
import { ProjectList } from "./project-list";

/** SPEC.md §2.5 Projects tab: 'Project Management' card with the list and, for creators, 'New Project'. */
export function ProjectManagement({ role }: { role: Role | null | undefined }) {
  const projects = useProjects();
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
        {projects.isPending ? (
          <div className="flex justify-center py-12">
            <Spinner label="Loading projects" />
          </div>
        ) : (
          <ProjectList projects={projects.data ?? []} />
        )}
      </CardContent>
    </Card>
  );
}
