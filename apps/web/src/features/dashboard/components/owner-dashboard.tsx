import { formatMoney, type OwnerDashboardDto } from "@tranche/domain";
import { FolderKanbanIcon, LandmarkIcon, SendIcon, TrendingUpIcon } from "lucide-react";
import { Link } from "react-router";
import { ProjectStatusBadge } from "@/components/status-badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Progress } from "@/components/ui/feedback";
import { AllProjectsLink } from "./all-projects-link";
import { MoneyLines } from "./money-lines";
import { StatCard } from "./stat-card";
import { UpcomingMilestones } from "./upcoming-milestones";

/** The owner dashboard, over the projects the caller owns. */
export function OwnerDashboard({ data }: { data: OwnerDashboardDto }) {
  const progress = data.fundingProgress;
  const single = progress.length <= 1;
  return (
    <section className="grid gap-6" aria-labelledby="owner-dashboard-title">
      <div>
        <h2 id="owner-dashboard-title" className="text-xl font-semibold text-slate-900">
          Project Owner Overview
        </h2>
        <p className="text-sm text-muted-foreground">Your projects, their funding and what is due next.</p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard title="Total Projects" icon={FolderKanbanIcon} value={data.totalProjects} />
        <StatCard title="Total Project Value" icon={LandmarkIcon} value={<MoneyLines totals={data.totalValue} />} />
        <StatCard
          title="Released"
          icon={SendIcon}
          value={<MoneyLines totals={data.released} />}
          detail={
            <span data-testid="settled-figure" className="flex flex-wrap items-baseline gap-x-1">
              Settled: <MoneyLines totals={data.settled} />
            </span>
          }
        />
        <StatCard
          title="Funding Progress"
          icon={TrendingUpIcon}
          value={
            single ? (
              `${progress[0]?.percent ?? 0}%`
            ) : (
              <span className="flex flex-wrap gap-x-3">
                {progress.map((p) => (
                  <span key={p.currency}>
                    <span className="text-base font-semibold text-slate-600">{p.currency}</span> {p.percent}%
                  </span>
                ))}
              </span>
            )
          }
          detail={
            single ? <Progress value={progress[0]?.percent ?? 0} label="Funding progress" /> : "Released per currency"
          }
        />
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Your Projects</CardTitle>
            <CardDescription>Projects you own</CardDescription>
          </CardHeader>
          <CardContent>
            {data.projects.length === 0 ? (
              <p className="text-sm text-muted-foreground">You have no projects yet</p>
            ) : (
              <ul className="grid max-h-[32rem] gap-3 overflow-y-auto pr-1" aria-label="Your projects">
                {data.projects.map((p) => (
                  <li key={p.id}>
                    <Link to={`/projects/${p.id}`} className="block rounded-md border p-3 hover:bg-slate-50">
                      <span className="flex flex-wrap items-center justify-between gap-2">
                        <span className="font-medium text-slate-900">{p.name}</span>
                        <ProjectStatusBadge status={p.status} />
                      </span>
                      <span className="mt-1 block text-sm text-slate-600">{p.description}</span>
                      {/* Whole figures: on a narrow phone a figure moves to the next line instead of splitting. */}
                      <span className="mt-2 flex flex-wrap gap-x-6 gap-y-1 text-xs sm:grid sm:grid-cols-3 sm:gap-2">
                        <span>
                          <span className="block text-muted-foreground">Released</span>
                          <span className="whitespace-nowrap font-medium text-slate-900">
                            {formatMoney(p.disbursedCapital, p.currency)}
                          </span>
                        </span>
                        <span>
                          <span className="block text-muted-foreground">Settled</span>
                          <span className="whitespace-nowrap font-medium text-slate-900">
                            {formatMoney(p.settledCapital, p.currency)}
                          </span>
                        </span>
                        <span>
                          <span className="block text-muted-foreground">Remaining</span>
                          <span className="whitespace-nowrap font-medium text-slate-900">
                            {formatMoney(p.remainingCapital, p.currency)}
                          </span>
                        </span>
                      </span>
                    </Link>
                  </li>
                ))}
              </ul>
            )}
            <AllProjectsLink shown={data.projects.length} total={data.totalProjects} />
          </CardContent>
        </Card>
        <UpcomingMilestones
          amber
          attention
          milestones={data.upcomingMilestones}
          description="Rejected and overdue milestones first, then your next ones; due within 14 days in amber"
        />
      </div>
    </section>
  );
}
