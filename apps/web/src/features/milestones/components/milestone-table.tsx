import { createColumnHelper } from "@tanstack/react-table";
import { formatLongDate, formatMoney, type MilestoneListItemDto, type MilestoneSort } from "@tranche/domain";
import { Link } from "react-router";
import { MilestoneStatusBadge } from "@/components/status-badge";
import { DataTable } from "@/components/ui/data-table";

const column = createColumnHelper<MilestoneListItemDto>();

const columns = [
  column.accessor("title", {
    header: "Milestone",
    meta: { className: "wrap-anywhere" },
    cell: (info) => (
      <Link to={`/milestones/${info.row.original.id}`} className="font-medium text-blue-700 hover:underline">
        {info.getValue()}
      </Link>
    ),
  }),
  column.accessor("projectName", {
    header: "Project",
    meta: { className: "wrap-anywhere" },
    cell: (info) => (
      <Link to={`/projects/${info.row.original.projectId}`} className="hover:underline">
        {info.getValue()}
      </Link>
    ),
  }),
  column.accessor("dueDate", {
    header: "Due Date",
    meta: { sort: { name: "due", direction: "asc" }, className: "whitespace-nowrap" },
    cell: (info) => formatLongDate(info.getValue()),
  }),
  column.accessor("status", {
    header: "Status",
    cell: (info) => <MilestoneStatusBadge status={info.getValue()} />,
  }),
  column.accessor("capitalAmount", {
    header: "Amount",
    meta: { sort: { name: "amount", direction: "desc" }, className: "whitespace-nowrap text-right" },
    cell: (info) => formatMoney(info.getValue(), info.row.original.projectCurrency),
  }),
];

/** Milestones across projects: a sortable table from tablets up, a card per milestone on phones. */
export function MilestoneTable({
  milestones,
  sort,
  onSortChange,
}: {
  milestones: MilestoneListItemDto[];
  sort: MilestoneSort;
  onSortChange: (sort: MilestoneSort) => void;
}) {
  return (
    <DataTable
      label="Milestones"
      columns={columns}
      rows={milestones}
      getRowId={(m) => m.id}
      sort={sort}
      onSortChange={(value) => onSortChange(value as MilestoneSort)}
      renderCard={(m) => (
        <div className="grid gap-1.5">
          <div className="flex items-start justify-between gap-2">
            <Link to={`/milestones/${m.id}`} className="font-medium text-blue-700 wrap-anywhere hover:underline">
              {m.title}
            </Link>
            <span className="whitespace-nowrap font-medium">{formatMoney(m.capitalAmount, m.projectCurrency)}</span>
          </div>
          <Link to={`/projects/${m.projectId}`} className="text-muted-foreground wrap-anywhere hover:underline">
            {m.projectName}
          </Link>
          <span className="flex flex-wrap items-center gap-2 text-muted-foreground">
            Due {formatLongDate(m.dueDate)}
            <MilestoneStatusBadge status={m.status} />
          </span>
        </div>
      )}
    />
  );
}
