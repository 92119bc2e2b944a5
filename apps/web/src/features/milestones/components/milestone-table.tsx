import { formatLongDate, formatMoney, type MilestoneListItemDto } from "@tranche/domain";
import { Link } from "react-router";
import { MilestoneStatusBadge } from "@/components/status-badge";
import { EmptyState } from "@/components/ui/feedback";

/**
 * Milestones across projects: title, project, due date, status and amount. On phones project, due date and
 * status sit under the title, so each row fits the screen without sideways scrolling.
 */
export function MilestoneTable({ milestones }: { milestones: MilestoneListItemDto[] }) {
  if (milestones.length === 0) return <EmptyState title="No milestones found" />;
  return (
    <div className="overflow-x-auto rounded-lg border bg-white">
      <table className="w-full sm:min-w-[40rem] text-sm">
        <thead className="border-b bg-slate-50 text-left text-muted-foreground">
          <tr>
            <th className="px-4 py-2.5 font-medium">Milestone</th>
            <th className="hidden px-4 py-2.5 font-medium sm:table-cell">Project</th>
            <th className="hidden px-4 py-2.5 font-medium sm:table-cell">Due Date</th>
            <th className="hidden px-4 py-2.5 font-medium sm:table-cell">Status</th>
            <th className="px-4 py-2.5 text-right font-medium">Amount</th>
          </tr>
        </thead>
        <tbody>
          {milestones.map((m) => (
            <tr key={m.id} className="border-b last:border-0">
              <td className="px-4 py-2.5 wrap-anywhere">
                <Link to={`/milestones/${m.id}`} className="font-medium text-blue-700 hover:underline">
                  {m.title}
                </Link>
                <span className="mt-1 grid justify-items-start gap-1 text-muted-foreground sm:hidden">
                  <Link to={`/projects/${m.projectId}`} className="hover:underline">
                    {m.projectName}
                  </Link>
                  <span className="flex flex-wrap items-center gap-2">
                    {formatLongDate(m.dueDate)}
                    <MilestoneStatusBadge status={m.status} />
                  </span>
                </span>
              </td>
              <td className="hidden px-4 py-2.5 wrap-anywhere sm:table-cell">
                <Link to={`/projects/${m.projectId}`} className="hover:underline">
                  {m.projectName}
                </Link>
              </td>
              <td className="hidden px-4 py-2.5 sm:table-cell">{formatLongDate(m.dueDate)}</td>
              <td className="hidden px-4 py-2.5 sm:table-cell">
                <MilestoneStatusBadge status={m.status} />
              </td>
              <td className="whitespace-nowrap px-4 py-2.5 text-right">
                {formatMoney(m.capitalAmount, m.projectCurrency)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
