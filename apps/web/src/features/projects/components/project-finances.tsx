import { formatMoney, type ProjectDetailDto, progressPercent } from "@tranche/domain";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/feedback";
import { MilestoneAmountTable } from "./milestone-amount-table";

/**
 * The Finances tab: capital summary cards (released and settled named apart), every milestone's tranche
 * by due date with a total row, and the project's releases (passed in: another feature's component).
 */
export function ProjectFinances({
  project,
  releases,
  policy,
}: {
  project: ProjectDetailDto;
  releases?: React.ReactNode;
  /** The release policy card (another feature's component). */
  policy?: React.ReactNode;
}) {
  const money = (n: number) => formatMoney(n, project.currency);
  const schedule = [...project.milestones].sort((a, b) => a.dueDate.localeCompare(b.dueDate));
  const scheduled = schedule.reduce((sum, m) => sum + Math.round(m.capitalAmount * 100), 0) / 100;
  const cards = [
    { label: "Total Capital", value: money(project.totalCapital) },
    {
      label: "Released",
      value: money(project.disbursedCapital),
      note: `${progressPercent(project.disbursedCapital, project.totalCapital)}% of total; instructed or settled`,
    },
    {
      label: "Settled",
      value: money(project.settledCapital),
      note: `${progressPercent(project.settledCapital, project.totalCapital)}% of total; paid by the custodian`,
    },
    { label: "Remaining", value: money(project.remainingCapital) },
  ];
  return (
    <div className="grid grid-cols-1 gap-4">
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
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
      {policy}
      <Card>
        <CardHeader>
          <CardTitle>Disbursement Schedule</CardTitle>
        </CardHeader>
        <CardContent>
          {schedule.length === 0 ? (
            <EmptyState title="No milestones have been created for this project yet." />
          ) : (
            <MilestoneAmountTable
              label="Disbursement Schedule"
              milestones={schedule}
              currency={project.currency}
              titleHeading="Milestone"
              total={scheduled}
            />
          )}
        </CardContent>
      </Card>
      {releases}
    </div>
  );
}
