import {
  type DashboardMilestoneDto,
  daysUntil,
  dueCountdown,
  formatLongDate,
  formatMoney,
  LIMITS,
} from "@tranche/domain";
import { Link } from "react-router";
import { MilestoneStatusBadge } from "@/components/status-badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { cn } from "@/lib/utils";

/** Why a milestone needs its owner now, if it does: rejected (resubmit) or past due and not verified. */
function attentionLabel(m: DashboardMilestoneDto, days: number): string | null {
  if (m.status === "rejected") return "Needs resubmission";
  if (m.status !== "verified" && days < 0) return "Overdue";
  return null;
}

/**
 * Milestones by due date; with `amber`, those due within 0–14 days are highlighted (LIMITS.amberWithinDays); with
 * `attention`, rejected and overdue ones are marked in red.
 */
export function UpcomingMilestones({
  milestones,
  description,
  amber = false,
  attention = false,
}: {
  milestones: DashboardMilestoneDto[];
  description: string;
  amber?: boolean;
  attention?: boolean;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Upcoming Milestones</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        {milestones.length === 0 ? (
          <p className="text-sm text-muted-foreground">No upcoming milestones</p>
        ) : (
          <ul className="grid gap-2" aria-label="Upcoming milestones">
            {milestones.map((m) => {
              const days = daysUntil(m.dueDate);
              const flag = attention ? attentionLabel(m, days) : null;
              const soon = !flag && amber && days >= 0 && days <= LIMITS.amberWithinDays;
              return (
                <li key={m.id}>
                  <Link
                    to={`/milestones/${m.id}`}
                    data-due-soon={soon || undefined}
                    data-attention={flag ?? undefined}
                    className={cn(
                      "flex flex-wrap items-center justify-between gap-2 rounded-md border p-3 hover:bg-slate-50",
                      soon && "border-amber-300 bg-amber-50 hover:bg-amber-100",
                      flag && "border-red-300 bg-red-50 hover:bg-red-100",
                    )}
                  >
                    <span className="min-w-0">
                      <span className="block truncate font-medium text-slate-900" title={m.title}>
                        {flag ? (
                          <span className="mr-2 rounded bg-red-600 px-1.5 py-0.5 text-xs font-semibold text-white">
                            {flag}
                          </span>
                        ) : null}
                        {m.title}
                      </span>
                      <span className="block text-xs text-muted-foreground">
                        {m.projectName} · Due {formatLongDate(m.dueDate)} ({dueCountdown(m.dueDate)})
                      </span>
                    </span>
                    <span className="flex items-center gap-2">
                      <span className="text-sm font-medium text-slate-800">
                        {formatMoney(m.openAmount, m.currency)}
                      </span>
                      <MilestoneStatusBadge status={m.status} />
                    </span>
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
