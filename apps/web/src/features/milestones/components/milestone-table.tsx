import { formatLongDate, formatMoney, type MilestoneListItemDto } from "@tranche/domain";
import { Link } from "react-router";
import { MilestoneStatusBadge } from "@/components/status-badge";
import { EmptyState } from "@/components/ui/feedback";

/** Milestones across projects: title, project, due date, status and amount. */
export function MilestoneTable({ milestones }: { milestones: MilestoneListItemDto[] }) {
  if (milestones.length === 0) return <EmptyState title="No milestones found" />;
  return (
    <div className="overflow-x-auto rounded-lg border bg-white">
      <table className="w-full min-w-[40rem] text-sm">
        <thead className="border-b bg-slate-50 text-left text-muted-foreground">
          <tr>
            <th className="px-4 py-2.5 font-medium">Milestone</th>
            <th className="px-4 py-2.5 font-medium">Project</th>
            <th className="px-4 py-2.5 font-medium">Due Date</th>
            <th className="px-4 py-2.5 font-medium">Status</th>
            <th className="px-4 py-2.5 text-right font-medium">Amount</th>
          </tr>
        </thead>
        <tbody>
          {milestones.map((m) => (
            <tr key={m.id} className="border-b last:border-0">
              <td className="px-4 py-2.5">
                <Link to={`/milestones/${m.id}`} className="font-medium text-blue-700 hover:underline">
                  {m.title}
                </Link>
              </td>
              <td className="px-4 py-2.5">
                <Link to={`/projects/${m.projectId}`} className="hover:underline">
                  {m.projectName}
                </Link>
              </td>
              <td className="px-4 py-2.5">{formatLongDate(m.dueDate)}</td>
              <td className="px-4 py-2.5">
                <MilestoneStatusBadge status={m.status} />
              </td>
              <td className="px-4 py-2.5 text-right">{formatMoney(m.capitalAmount, m.projectCurrency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
