import { formatLongDate, formatMoney, type ProjectDetailDto, progressPercent } from "@tranche/domain";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/feedback";
import { MilestoneAmountTable } from "./milestone-amount-table";

/** SPEC.md §2.7 Finances: capital summary cards, every milestone's tranche by due date, and a total row. */
export function ProjectFinances({ project }: { project: ProjectDetailDto }) {
  const money = (n: number) => formatMoney(n, project.currency);
  const schedule = [...project.milestones].sort((a, b) => a.dueDate.localeCompare(b.dueDate));
  const scheduled = schedule.reduce((sum, m) => sum + Math.round(m.capitalAmount * 100), 0) / 100;
  const cards = [
    { label: "Total Capital", value: money(project.totalCapital) },
    {
      label: "Disbursed",
      value: money(project.disbursedCapital),
      note: `${progressPercent(project.disbursedCapital, project.totalCapital)}% of total`,
    },
    { label: "Remaining", value: money(project.remainingCapital) },
  ];
  return (
    <div className="grid grid-cols-1 gap-4">
      <div className="grid gap-4 sm:grid-cols-3">
        {cards.map((card) => (
          <Card key={card.label}>
            <CardHeader className="pb-1">
              <p className="text-sm text-muted-foreground">{card.label}</p>
            </CardHeader>
            <CardContent>
              <p className="text-2xl font-semibold text-slate-900">{card.value}</p>
              {card.note ? <p className="text-xs text-muted-foreground">{card.note}</p> : null}
            </CardContent>
          </Card>
        ))}
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Disbursement Schedule</CardTitle>
        </CardHeader>
        <CardContent>
          {schedule.length === 0 ? (
            <EmptyState title="No milestones have been created for this project yet." />
          ) : (
            <MilestoneAmountTable
              milestones={schedule}
              currency={project.currency}
              titleHeading="Milestone"
              formatDue={formatLongDate}
              total={scheduled}
            />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
