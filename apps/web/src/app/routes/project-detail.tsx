import { ArrowLeftIcon, MapPinIcon } from "lucide-react";
import { Link, useParams } from "react-router";
import { SiteCoordinates } from "@/components/site-coordinates";
import { ProjectStatusBadge } from "@/components/status-badge";
import { Button } from "@/components/ui/button";
import { LoadError, Skeleton } from "@/components/ui/feedback";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { ProjectMilestones } from "@/features/milestones/components/project-milestones";
import { useProject } from "@/features/projects/api/get-project";
import { ProjectActions } from "@/features/projects/components/project-actions";
import { ProjectFinances } from "@/features/projects/components/project-finances";
import { ProjectOverview } from "@/features/projects/components/project-overview";
import { ProjectTeam } from "@/features/projects/components/project-team";
import { ReleasePolicyCard } from "@/features/release-policy/components/release-policy-card";
import { ProjectReleases } from "@/features/releases/components/project-releases";
import { dashboardReturnPath } from "@/lib/dashboard-return";
import { useDocumentTitle } from "@/lib/document-title";
import { useLoadFailure } from "@/lib/use-load-failure";
import { useUrlState } from "@/lib/use-url-state";

const FAILURE_TEXTS = {
  notFound: ["Project not found", "The requested project could not be found."],
  failed: ["Error loading project", "Could not load project details"],
} as const satisfies Parameters<typeof useLoadFailure>[1];

const TABS = ["overview", "milestones", "team", "finances"] as const;

/** A project's page: Overview, Milestones, Team and Finances. */
export default function ProjectPage() {
  const { projectId = "" } = useParams();
  const project = useProject(projectId);
  useLoadFailure(project.error, FAILURE_TEXTS);
  // The open tab is in the URL (?tab=milestones): back from a milestone, a reload or a shared link opens it again.
  const [view, setView] = useUrlState({ tab: "overview" });
  const tab = TABS.includes(view.tab as (typeof TABS)[number]) ? view.tab : "overview";
  const data = project.data;
  useDocumentTitle(data?.name ?? "Project");

  return (
    <div className="grid gap-6">
      <div>
        <Button asChild variant="ghost" size="sm" className="-ml-3">
          <Link to={dashboardReturnPath()}>
            <ArrowLeftIcon aria-hidden /> Back to Dashboard
          </Link>
        </Button>
      </div>
      {!data && project.isError ? (
        // Not found goes back to the dashboard; any other failure offers another try instead of a lasting skeleton.
        <LoadError title={FAILURE_TEXTS.failed[0]} error={project.error} onRetry={project.refetch} />
      ) : !data ? (
        <div className="grid gap-4" aria-busy="true">
          <Skeleton className="h-9 w-2/3" />
          <Skeleton className="h-5 w-1/3" />
          <Skeleton className="h-64 w-full" />
        </div>
      ) : (
        <>
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div className="grid gap-1">
              <h1 className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl">{data.name}</h1>
              {data.location ? (
                <p className="flex items-center gap-1.5 text-sm text-muted-foreground">
                  <MapPinIcon className="size-4" aria-hidden /> {data.location}
                </p>
              ) : null}
              <SiteCoordinates project={data} />
            </div>
            <div className="flex flex-wrap items-center gap-2 sm:justify-end">
              <ProjectStatusBadge status={data.status} className="text-sm" />
              <ProjectActions project={data} />
            </div>
          </div>
          <Tabs value={tab} onValueChange={(value) => setView({ tab: value })}>
            <TabsList>
              <TabsTrigger value="overview">Overview</TabsTrigger>
              <TabsTrigger value="milestones">Milestones</TabsTrigger>
              <TabsTrigger value="team">Team</TabsTrigger>
              <TabsTrigger value="finances">Finances</TabsTrigger>
            </TabsList>
            <TabsContent value="overview">
              <ProjectOverview project={data} />
            </TabsContent>
            <TabsContent value="milestones">
              <ProjectMilestones
                projectId={data.id}
                milestones={data.milestones}
                currency={data.currency}
                canManage={data.permissions.canManageMilestones}
                canSetStatus={data.permissions.canSetMilestoneStatus}
              />
            </TabsContent>
            <TabsContent value="team">
              <ProjectTeam project={data} />
            </TabsContent>
            <TabsContent value="finances">
              <ProjectFinances
                project={data}
                policy={<ReleasePolicyCard projectId={data.id} />}
                releases={<ProjectReleases projectId={data.id} />}
              />
            </TabsContent>
          </Tabs>
        </>
      )}
    </div>
  );
}
