import { formatDate, formatMoney, LIMITS, type ProjectDetailDto, progressPercent } from "@tranche/domain";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState, Progress } from "@/components/ui/feedback";
import { MilestoneAmountTable } from "./milestone-amount-table";

function Row({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-3 py-1.5 text-sm">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="text-right font-medium text-slate-900">{value}</dd>
    </div>
  );
}

/** The Overview tab: timeline, capital, milestone counts, description, progress, upcoming milestones. */
export function ProjectOverview({ project }: { project: ProjectDetailDto }) {
  const money = (n: number) => formatMoney(n, project.currency);
  const percent = progressPercent(project.disbursedCapital, project.totalCapital);
  const upcoming = project.milestones
    .filter((m) => m.status === "pending" || m.status === "in_verification")
    .sort((a, b) => a.dueDate.localeCompare(b.dueDate))
    .slice(0, LIMITS.upcomingMilestones);

  return (
    <div className="grid grid-cols-1 gap-4">
      <div className="grid gap-4 md:grid-cols-3">
        <Card>
          <CardHeader>
            <CardTitle>Timeline</CardTitle>
          </CardHeader>
          <CardContent>
            <dl>
              <Row label="Start Date" value={project.startDate ? formatDate(project.startDate) : "Not set"} />
              <Row label="End Date" value={project.endDate ? formatDate(project.endDate) : "Ongoing"} />
            </dl>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Capital Overview</CardTitle>
          </CardHeader>
          <CardContent>
            <dl>
              <Row label="Total Capital" value={money(project.totalCapital)} />
              <Row label="Released" value={money(project.disbursedCapital)} />
              <Row label="Settled" value={money(project.settledCapital)} />
              <Row label="Remaining" value={money(project.remainingCapital)} />
            </dl>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Milestones</CardTitle>
          </CardHeader>
          <CardContent>
            <dl>
              <Row label="Total" value={project.counts.total} />
              <Row label="Verified" value={project.counts.verified} />
              <Row label="Pending" value={project.counts.pending} />
              <Row label="Delayed / Rejected" value={project.counts.delayedOrRejected} />
            </dl>
          </CardContent>
        </Card>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Description</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-5">
          <p className="whitespace-pre-line text-sm text-slate-700">{project.description}</p>
          <p className="text-sm text-slate-700">
            <span className="font-medium text-slate-900">Release rule: </span>
            {project.releasePolicy.statement}.
          </p>
          <div className="grid gap-1.5">
            <div className="flex justify-between text-sm">
              <span className="font-medium text-slate-800">Capital Progress</span>
              <span className="text-muted-foreground">{percent}%</span>
            </div>
            <Progress value={percent} label="Capital progress" />
          </div>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Upcoming Milestones</CardTitle>
        </CardHeader>
        <CardContent>
          {upcoming.length === 0 ? (
            <EmptyState title="No upcoming milestones" />
          ) : (
            <MilestoneAmountTable
              label="Upcoming Milestones"
              milestones={upcoming}
              currency={project.currency}
              titleHeading="Title"
            />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
