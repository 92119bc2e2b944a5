import { type Currency, formatMoney, type MilestoneDto } from "@tranche/domain";
import { MilestoneStatusBadge } from "@/components/status-badge";

/**
 * Milestones as rows of title, due date, status and amount; with `total`, a closing total row. On phones the
 * due date and status sit under the title, so the amount stays on screen without sideways scrolling.
 */
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
      <table className="w-full text-sm">
        <thead className="border-b text-left text-muted-foreground">
          <tr>
            <th className="py-2 pr-3 font-medium">{titleHeading}</th>
            <th className="hidden py-2 pr-3 font-medium sm:table-cell">Due Date</th>
            <th className="hidden py-2 pr-3 font-medium sm:table-cell">Status</th>
            <th className="py-2 text-right font-medium">Amount</th>
          </tr>
        </thead>
        <tbody>
          {milestones.map((m) => (
            <tr key={m.id} className="border-b last:border-0">
              <td className="py-2 pr-3 wrap-anywhere">
                <span className="font-medium text-slate-900">{m.title}</span>
                <span className="mt-1 flex flex-wrap items-center gap-2 text-muted-foreground sm:hidden">
                  {formatDue(m.dueDate)}
                  <MilestoneStatusBadge status={m.status} />
                </span>
              </td>
              <td className="hidden py-2 pr-3 sm:table-cell">{formatDue(m.dueDate)}</td>
              <td className="hidden py-2 pr-3 sm:table-cell">
                <MilestoneStatusBadge status={m.status} />
              </td>
              <td className="whitespace-nowrap py-2 text-right">{formatMoney(m.capitalAmount, currency)}</td>
            </tr>
          ))}
        </tbody>
        {total === undefined ? null : (
          <tfoot className="border-t">
            <tr className="font-semibold text-slate-900">
              <td className="py-2 pr-3">Total</td>
              <td className="hidden sm:table-cell" />
              <td className="hidden sm:table-cell" />
              <td className="whitespace-nowrap py-2 text-right" data-testid="schedule-total">
                {formatMoney(total, currency)}
              </td>
            </tr>
          </tfoot>
        )}
      </table>
    </div>
  );
}
