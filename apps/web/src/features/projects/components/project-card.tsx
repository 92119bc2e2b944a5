import { formatDate, formatMoney, type ProjectSummaryDto, progressPercent } from "@tranche/domain";
import { CalendarIcon, MapPinIcon } from "lucide-react";
import { Link } from "react-router";
import { ProjectStatusBadge } from "@/components/status-badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Progress } from "@/components/ui/feedback";

/** A project's card: name, status, description, location, capital, date range, progress, View Details. */
export function ProjectCard({ project }: { project: ProjectSummaryDto }) {
  const percent = progressPercent(project.disbursedCapital, project.totalCapital);
  return (
    <Card className="flex flex-col" data-testid="project-card">
      <CardHeader>
        {/* The badge moves under the name when both cannot share a line (a 320 px phone) instead of squeezing it
            into broken words. */}
        <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-2">
          <CardTitle className="min-w-0 flex-1 basis-40 text-lg">{project.name}</CardTitle>
          <ProjectStatusBadge status={project.status} />
        </div>
        <p className="line-clamp-2 text-sm text-muted-foreground">{project.description}</p>
      </CardHeader>
      <CardContent className="grid flex-1 gap-3 text-sm">
        {project.location ? (
          <p className="flex items-center gap-2 text-slate-700">
            <MapPinIcon className="size-4 shrink-0 text-slate-500" aria-hidden />
            {project.location}
          </p>
        ) : null}
        <div className="flex items-baseline justify-between gap-2">
          <span className="text-muted-foreground">Total Capital</span>
          <span className="font-semibold text-slate-900">{formatMoney(project.totalCapital, project.currency)}</span>
        </div>
        {project.startDate ? (
          <p className="flex items-center gap-2 text-slate-700">
            <CalendarIcon className="size-4 shrink-0 text-slate-500" aria-hidden />
            {formatDate(project.startDate)} - {project.endDate ? formatDate(project.endDate) : "Ongoing"}
          </p>
        ) : null}
        <div className="grid gap-1.5">
          <div className="flex justify-between text-xs text-muted-foreground">
            <span>Progress</span>
            <span>{percent}%</span>
          </div>
          <Progress value={percent} label={`${project.name} progress`} />
        </div>
      </CardContent>
      <CardFooter>
        <Button asChild variant="outline" className="w-full">
          <Link to={`/projects/${project.id}`}>View Details</Link>
        </Button>
      </CardFooter>
    </Card>
  );
}
