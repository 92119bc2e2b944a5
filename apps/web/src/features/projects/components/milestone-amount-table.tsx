import { type Currency, formatMoney, type MilestoneDto } from "@tranche/domain";
import { MilestoneStatusBadge } from "@/components/status-badge";

/** Milestones as rows of title, due date, status and amount; with `total`, a closing total row. */
export function MilestoneAmountTable({
  milestones,
  currency,
  titleHeading,
  formatDue,
  total,
}: {
  milestones: MilestoneDto[];
  currency: Currency;
  titleHeading: string;
  formatDue: (date: string) => string;
  total?: number;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[32rem] text-sm">
        <thead className="border-b text-left text-muted-foreground">
          <tr>
            <th className="py-2 pr-3 font-medium">{titleHeading}</th>
            <th className="py-2 pr-3 font-medium">Due Date</th>
            <th className="py-2 pr-3 font-medium">Status</th>
            <th className="py-2 text-right font-medium">Amount</th>
          </tr>
        </thead>
        <tbody>
          {milestones.map((m) => (
            <tr key={m.id} className="border-b last:border-0">
              <td className="py-2 pr-3 font-medium text-slate-900">{m.title}</td>
              <td className="py-2 pr-3">{formatDue(m.dueDate)}</td>
              <td className="py-2 pr-3">
                <MilestoneStatusBadge status={m.status} />
              </td>
              <td className="py-2 text-right">{formatMoney(m.capitalAmount, currency)}</td>
            </tr>
          ))}
        </tbody>
        {total === undefined ? null : (
          <tfoot className="border-t">
            <tr className="font-semibold text-slate-900">
              <td className="py-2 pr-3" colSpan={3}>
                Total
              </td>
              <td className="py-2 text-right" data-testid="schedule-total">
                {formatMoney(total, currency)}
              </td>
            </tr>
          </tfoot>
        )}
      </table>
    </div>
  );
}
