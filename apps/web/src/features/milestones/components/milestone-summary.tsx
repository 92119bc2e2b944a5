import {
  daysUntil,
  dueCountdown,
  formatLongDate,
  formatMoney,
  type MilestoneDetailDto,
  milestoneShare,
  RELEASED_STATUSES,
  type ReleaseDto,
} from "@tranche/domain";
import { CalendarIcon, CircleDollarSignIcon, ShieldCheckIcon } from "lucide-react";
import { MilestoneStatusBadge, ReleaseStatusBadge } from "@/components/status-badge";
import { Card, CardContent, CardHeader } from "@/components/ui/card";
import { cn } from "@/lib/utils";

function SummaryCard({ icon, label, children }: { icon: React.ReactNode; label: string; children: React.ReactNode }) {
  return (
    <Card>
      <CardHeader className="flex-row items-center gap-2 pb-2 text-sm text-muted-foreground">
        {icon}
        {label}
      </CardHeader>
      <CardContent className="grid gap-1">{children}</CardContent>
    </Card>
  );
}

/** A milestone's cards: due date with countdown, amount with its share of the project, status. */
export function MilestoneSummary({ milestone }: { milestone: MilestoneDetailDto }) {
  // A verified milestone is done; any other is still counting down (or late).
  const done = milestone.status === "verified";
  const late = !done && daysUntil(milestone.dueDate) < 0;
  return (
    <div className="grid gap-4 md:grid-cols-3">
      <SummaryCard icon={<CalendarIcon className="size-4" aria-hidden />} label="Due Date">
        <p className="text-lg font-semibold text-slate-900">{formatLongDate(milestone.dueDate)}</p>
        {done ? null : (
          <p className={cn("text-sm", late ? "font-medium text-red-700" : "text-muted-foreground")}>
            {dueCountdown(milestone.dueDate)}
          </p>
        )}
      </SummaryCard>
      <SummaryCard icon={<CircleDollarSignIcon className="size-4" aria-hidden />} label="Capital Amount">
        <p className="text-lg font-semibold text-slate-900">
          {formatMoney(milestone.capitalAmount, milestone.projectCurrency)}
        </p>
        <p className="text-sm text-muted-foreground">
          {milestoneShare(milestone.capitalAmount, milestone.projectTotalCapital)}% of project total capital
        </p>
        {milestone.releases.length ? <ReleaseFigures releases={milestone.releases} /> : null}
      </SummaryCard>
      <SummaryCard icon={<ShieldCheckIcon className="size-4" aria-hidden />} label="Status">
        <div>
          <MilestoneStatusBadge status={milestone.status} />
        </div>
        {milestone.status === "verified" && milestone.verificationDate ? (
          <p className="text-sm text-muted-foreground">Verified on {formatLongDate(milestone.verificationDate)}</p>
        ) : null}
        {milestone.release ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            Release <ReleaseStatusBadge status={milestone.release.status} />
          </p>
        ) : null}
      </SummaryCard>
    </div>
  );
}

/** Released (instructed or settled) and Settled, named apart: the sums of every release of the milestone. */
function ReleaseFigures({ releases }: { releases: ReleaseDto[] }) {
  const money = (n: number) => formatMoney(n, releases[0].currency);
  const sum = (counted: (r: ReleaseDto) => boolean) =>
    Math.round(releases.filter(counted).reduce((total, r) => total + r.amount * 100, 0)) / 100;
  const released = sum((r) => RELEASED_STATUSES.includes(r.status));
  const settled = sum((r) => r.status === "settled");
  return (
    <dl className="mt-1 grid grid-cols-2 gap-2 text-sm" aria-label="Released and settled">
      <div>
        <dt className="text-muted-foreground">Released</dt>
        <dd className="font-medium text-slate-900">{money(released)}</dd>
      </div>
      <div>
        <dt className="text-muted-foreground">Settled</dt>
        <dd className="font-medium text-slate-900">{money(settled)}</dd>
      </div>
    </dl>
  );
}
