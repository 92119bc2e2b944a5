import { createColumnHelper } from "@tanstack/react-table";
import { type Currency, formatLongDate, formatMoney, type MilestoneDto } from "@tranche/domain";
import { useMemo } from "react";
import { MilestoneStatusBadge } from "@/components/status-badge";
import { DataTable } from "@/components/ui/data-table";

const column = createColumnHelper<MilestoneDto>();

function amountColumns(currency: Currency, titleHeading: string, total: number | undefined) {
  const withTotal = total !== undefined;
  return [
    column.accessor("title", {
      header: titleHeading,
      meta: { className: "wrap-anywhere font-medium text-slate-900" },
      footer: withTotal ? "Total" : undefined,
    }),
    column.accessor("dueDate", {
      header: "Due Date",
      meta: { className: "whitespace-nowrap" },
      cell: (info) => formatLongDate(info.getValue()),
    }),
    column.accessor("status", {
      header: "Status",
      cell: (info) => <MilestoneStatusBadge status={info.getValue()} />,
    }),
    column.accessor("capitalAmount", {
      header: "Amount",
      meta: { className: "whitespace-nowrap text-right" },
      cell: (info) => formatMoney(info.getValue(), currency),
      footer: withTotal ? () => <span data-testid="schedule-total">{formatMoney(total, currency)}</span> : undefined,
    }),
  ];
}

/**
 * Milestones as rows of title, due date, status and amount; with `total`, a closing total row. On phones each
 * milestone is a card: title and amount, then its due date and status.
 */
export function MilestoneAmountTable({
  label,
  milestones,
  currency,
  titleHeading,
  total,
}: {
  label: string;
  milestones: MilestoneDto[];
  currency: Currency;
  titleHeading: string;
  total?: number;
}) {
  const columns = useMemo(() => amountColumns(currency, titleHeading, total), [currency, titleHeading, total]);
  return (
    <DataTable
      label={label}
      columns={columns}
      rows={milestones}
      getRowId={(m) => m.id}
      renderCard={(m) => (
        <div className="grid gap-1.5">
          <div className="flex items-start justify-between gap-2">
            <span className="min-w-0 font-medium text-slate-900 wrap-anywhere">{m.title}</span>
            <span className="whitespace-nowrap">{formatMoney(m.capitalAmount, currency)}</span>
          </div>
          <span className="flex flex-wrap items-center gap-2 text-muted-foreground">
            {formatLongDate(m.dueDate)}
            <MilestoneStatusBadge status={m.status} />
          </span>
        </div>
      )}
    />
  );
}
