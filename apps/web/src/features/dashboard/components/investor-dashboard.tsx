import { formatMoney, formatMoneyCompact, type InvestorDashboardDto, LIMITS, progressPercent } from "@tranche/domain";
import { AlertTriangleIcon, BadgeCheckIcon, ClockIcon, LandmarkIcon } from "lucide-react";
import { Link } from "react-router";
import { countOf } from "@/components/paging-footer";
import { ProjectStatusBadge } from "@/components/status-badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Progress } from "@/components/ui/feedback";
import { AllProjectsLink } from "./all-projects-link";
import { MoneyLines } from "./money-lines";
import { StatCard } from "./stat-card";
import { UpcomingMilestones } from "./upcoming-milestones";

/** The LP control centre, over the investor's own portfolio. */
export function InvestorDashboard({ data }: { data: InvestorDashboardDto }) {
  const percent =
    data.verifiedDisbursements.length === 0
      ? "0% of committed capital"
      : data.verifiedDisbursements
          .map((d) =>
            data.verifiedDisbursements.length > 1
              ? `${d.currency} ${d.percentOfCommitted}%`
              : `${d.percentOfCommitted}% of committed capital`,
          )
          .join(" · ") + (data.verifiedDisbursements.length > 1 ? " of committed capital" : "");
  return (
    <section className="grid gap-6" aria-labelledby="investor-dashboard-title">
      <div>
        <h2 id="investor-dashboard-title" className="text-xl font-semibold text-slate-900">
          LP Control Centre
        </h2>
        <p className="text-sm text-muted-foreground">Oversight of your portfolio's milestone-gated capital.</p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard
          title="Capital Under Management"
          icon={LandmarkIcon}
          value={<MoneyLines totals={data.capitalUnderManagement} />}
          detail={countOf(data.projectCount, "projects")}
        />
        <StatCard
          title="Verified Disbursements"
          icon={BadgeCheckIcon}
          value={<MoneyLines totals={data.verifiedDisbursements} />}
          detail={
            <>
              Released: {percent}
              <span className="mt-1 block" data-testid="settled-figure">
                {/* The same compact form as the released figure above it: one format per card. */}
                Settled:{" "}
                {data.verifiedDisbursements.length === 0
                  ? formatMoneyCompact(0, "USD")
                  : data.verifiedDisbursements.map((d) => formatMoneyCompact(d.settled, d.currency)).join(" · ")}
              </span>
            </>
          }
        />
        <StatCard
          title="Pending Review"
          icon={ClockIcon}
          value={data.pendingReviewCount}
          detail="Milestones awaiting verification"
        />
        <StatCard title="Risk Alerts" icon={AlertTriangleIcon} value={data.riskAlertsCount} detail="Projects at risk" />
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Portfolio</CardTitle>
            <CardDescription>Your projects and their verification status</CardDescription>
          </CardHeader>
          <CardContent>
            {data.portfolio.length === 0 ? (
              <p className="text-sm text-muted-foreground">No projects in your portfolio yet</p>
            ) : (
              <ul className="grid max-h-[32rem] gap-3 overflow-y-auto pr-1" aria-label="Portfolio">
                {data.portfolio.map((p) => (
                  <li key={p.id}>
                    <Link to={`/projects/${p.id}`} className="block rounded-md border p-3 hover:bg-slate-50">
                      <span className="flex flex-wrap items-center justify-between gap-2">
                        <span className="font-medium text-slate-900">{p.name}</span>
                        <ProjectStatusBadge status={p.status} />
                      </span>
                      <span className="mt-2 block text-xs text-muted-foreground">
                        {formatMoney(p.disbursedCapital, p.currency)} of {formatMoney(p.totalCapital, p.currency)}{" "}
                        released · {formatMoney(p.settledCapital, p.currency)} settled
                      </span>
                      <Progress
                        className="mt-2"
                        value={progressPercent(p.disbursedCapital, p.totalCapital)}
                        label={`${p.name} capital released`}
                      />
                    </Link>
                  </li>
                ))}
              </ul>
            )}
            <AllProjectsLink shown={data.portfolio.length} total={data.projectCount} />
          </CardContent>
        </Card>
        <UpcomingMilestones
          milestones={data.upcomingMilestones}
          description={`The ${LIMITS.investorUpcomingMilestones} soonest milestones awaiting verification`}
        />
      </div>
    </section>
  );
}
