import { type AdminDashboardDto, formatCount, formatDate, formatMoney, MILESTONE_STATUSES } from "@tranche/domain";
import { FolderKanbanIcon, ShieldCheckIcon, StarIcon, UsersIcon } from "lucide-react";
import { Link } from "react-router";
import { MilestoneStatusBadge, ProjectStatusBadge } from "@/components/status-badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { VerifierTurnaround } from "@/components/verifier-turnaround";
import { StatCard } from "./stat-card";

/** The admin overview of the whole platform. */
export function AdminDashboard({ data }: { data: AdminDashboardDto }) {
  return (
    <section className="grid gap-6" aria-labelledby="admin-dashboard-title">
      <div>
        <h2 id="admin-dashboard-title" className="text-xl font-semibold text-slate-900">
          Admin Overview
        </h2>
        <p className="text-sm text-muted-foreground">Users, projects and verifiers across the platform.</p>
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <StatCard title="Total Projects" icon={FolderKanbanIcon} value={data.totals.projects} />
        <StatCard title="Total Users" icon={UsersIcon} value={data.totals.users} />
        <StatCard title="Verifiers" icon={ShieldCheckIcon} value={data.totals.verifiers} />
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Milestones by Status</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5">
            {MILESTONE_STATUSES.map((status) => (
              <div key={status} className="rounded-md border p-3" data-testid={`milestones-${status}`}>
                <dt>
                  <MilestoneStatusBadge status={status} />
                  <span className="sr-only"> milestones</span>
                </dt>
                <dd className="mt-2 text-2xl font-bold text-slate-900">
                  {formatCount(data.milestonesByStatus[status])}
                </dd>
              </div>
            ))}
          </dl>
        </CardContent>
      </Card>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Recent Projects</CardTitle>
            <CardDescription>The newest projects on the platform</CardDescription>
          </CardHeader>
          <CardContent>
            {data.recentProjects.length === 0 ? (
              <p className="text-sm text-muted-foreground">No projects yet</p>
            ) : (
              <ul className="grid gap-2" aria-label="Recent projects">
                {data.recentProjects.map((p) => (
                  <li key={p.id}>
                    <Link
                      to={`/projects/${p.id}`}
                      className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-3 hover:bg-slate-50"
                    >
                      <span className="min-w-0">
                        <span className="block truncate font-medium text-slate-900" title={p.name}>
                          {p.name}
                        </span>
                        <span className="block text-xs text-muted-foreground">
                          {formatMoney(p.totalCapital, p.currency)} · created {formatDate(p.createdAt)}
                        </span>
                      </span>
                      <ProjectStatusBadge status={p.status} />
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Verifiers Directory</CardTitle>
            <CardDescription>Independent verifiers and their workload</CardDescription>
          </CardHeader>
          <CardContent>
            {data.verifiers.length === 0 ? (
              <p className="text-sm text-muted-foreground">No verifiers yet</p>
            ) : (
              <ul className="grid gap-2" aria-label="Verifiers directory">
                {data.verifiers.map((v) => (
                  <li key={v.id} className="rounded-md border p-3">
                    <div className="flex flex-wrap items-center justify-between gap-2">
                      <span className="font-medium text-slate-900">{v.name}</span>
                      <span className="flex items-center gap-1 text-sm text-slate-700">
                        <StarIcon className="size-4 fill-amber-400 text-amber-500" aria-hidden />
                        {v.rating === null ? "Not rated" : v.rating.toFixed(1)}
                      </span>
                    </div>
                    <p className="text-xs text-muted-foreground">{v.organization ?? "Independent Verifier"}</p>
                    {v.expertise.length > 0 ? (
                      <p className="mt-2 flex flex-wrap gap-1">
                        {v.expertise.map((e) => (
                          <span key={e} className="rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-700">
                            {e}
                          </span>
                        ))}
                      </p>
                    ) : null}
                    <p className="mt-2 text-xs text-slate-600">
                      {v.projectCount} {v.projectCount === 1 ? "project" : "projects"} · {v.completedVerifications}{" "}
                      completed
                    </p>
                    <VerifierTurnaround turnaround={v.turnaround} compact />
                  </li>
                ))}
              </ul>
            )}
            {data.totals.verifiers > data.verifiers.length ? (
              <Link to="/verifiers" className="mt-3 inline-block text-sm font-medium text-blue-700 hover:underline">
                View all {formatCount(data.totals.verifiers)} verifiers
              </Link>
            ) : null}
          </CardContent>
        </Card>
      </div>
    </section>
  );
}
