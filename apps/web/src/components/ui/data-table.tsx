import {
  type ColumnDef,
  flexRender,
  getCoreRowModel,
  type Header,
  type Row,
  type RowData,
  useReactTable,
} from "@tanstack/react-table";
import { ArrowDownIcon, ArrowUpIcon, ChevronsUpDownIcon } from "lucide-react";
import { Fragment, type HTMLAttributes, type ReactNode } from "react";
import { useMediaQuery } from "@/lib/use-media-query";
import { cn } from "@/lib/utils";
import { ScrollRegion } from "./scroll-region";

declare module "@tanstack/react-table" {
  interface ColumnMeta<TData extends RowData, TValue> {
    /**
     * The server sort this column's header selects (the list is sorted on the server, a page at a time), and the
     * server's sort the other way round, if it has one: a second click on the header selects that.
     */
    sort?: { name: string; direction: "asc" | "desc"; reverse?: string };
    className?: string;
  }
}

/** Attributes a page sets on one row, table row and card alike (an anchor id, a highlight, a test id). */
export type DataRowProps = Pick<HTMLAttributes<HTMLElement>, "id" | "className" | "aria-current"> & {
  "data-testid"?: string;
};

/** A row's detail panel (`renderExpanded`): whether it is open, and the control that opens and closes it. */
export interface RowDetail {
  expanded: boolean;
  toggle: () => void;
}

/**
 * Every table of the app: a table (TanStack Table) from tablets up and a card per row on phones, so no column is
 * lost on a small screen: `renderCard` lays the row out for a phone, or each column's header and value are listed.
 * `cards={false}` keeps the table on phones too, for a few short columns that fit one (a chart's figures).
 *
 * Sorting is the server's: a sortable header selects its sort, which the page keeps in the URL and sends with the
 * query. Without `onSortChange` the order is fixed: the header of the column it follows only says so (aria-sort).
 * Column `footer`s make a closing row (a total); `renderExpanded` a detail panel under a row, opened by a control
 * the row's cells (or card) render with `row.getToggleExpandedHandler()` (or `detail.toggle`). `minWidth` (a
 * Tailwind class) keeps a wide table legible: it then scrolls sideways in a labelled, focusable region.
 */
export function DataTable<T>({
  label,
  columns,
  rows,
  getRowId,
  sort = "",
  onSortChange,
  renderCard,
  renderExpanded,
  rowProps,
  minWidth,
  cards = true,
}: {
  label: string;
  // Column value types differ per column (TanStack's own column helpers return this type).
  columns: ColumnDef<T, any>[];
  rows: T[];
  /** A row's stable id (kept across refetches: an open detail stays open); by default its position. */
  getRowId?: (row: T) => string;
  sort?: string;
  onSortChange?: (sort: string) => void;
  renderCard?: (row: T, detail: RowDetail) => ReactNode;
  renderExpanded?: (row: T) => ReactNode;
  rowProps?: (row: T) => DataRowProps;
  minWidth?: string;
  cards?: boolean;
}) {
  // One layout at a time, not both hidden by CSS: a row's ids and labelled controls stay unique in the page.
  const wide = useMediaQuery("(min-width: 48rem)") || !cards;
  const table = useReactTable({
    data: rows,
    columns,
    getRowId,
    getCoreRowModel: getCoreRowModel(),
    getRowCanExpand: () => renderExpanded !== undefined,
    // The rows arrive sorted by the server; the table only renders them.
    manualSorting: true,
  });
  const footers = table.getFooterGroups()[0]?.headers.filter((header) => header.column.columnDef.footer) ?? [];

  if (!wide) {
    const headers = new Map(table.getFlatHeaders().map((header) => [header.column.id, header]));
    return (
      <div className="grid gap-3">
        <ul className="grid gap-3" aria-label={label}>
          {table.getRowModel().rows.map((row) => {
            const props = rowProps?.(row.original);
            const detail = { expanded: row.getIsExpanded(), toggle: row.getToggleExpandedHandler() };
            return (
              <li key={row.id} {...props} className={cn("rounded-lg border bg-white p-4 text-sm", props?.className)}>
                {renderCard ? renderCard(row.original, detail) : <ColumnCard row={row} headers={headers} />}
                {detail.expanded && renderExpanded ? (
                  <div className="mt-3 border-t pt-3">{renderExpanded(row.original)}</div>
                ) : null}
              </li>
            );
          })}
        </ul>
        {footers.length > 0 ? (
          <div className="flex flex-wrap items-baseline justify-between gap-2 rounded-lg border bg-white p-4 text-sm font-semibold text-slate-900">
            {footers.map((header) => (
              <span key={header.id}>{flexRender(header.column.columnDef.footer, header.getContext())}</span>
            ))}
          </div>
        ) : null}
      </div>
    );
  }

  const tableElement = (
    <table className={cn("w-full text-sm", minWidth)} aria-label={label}>
      <thead className="border-b bg-slate-50 text-left text-muted-foreground">
        {table.getHeaderGroups().map((group) => (
          <tr key={group.id}>
            {group.headers.map((header) => {
              const meta = header.column.columnDef.meta;
              const columnSort = meta?.sort;
              const active = sortDirection(columnSort, sort);
              const title = flexRender(header.column.columnDef.header, header.getContext());
              return (
                <th
                  key={header.id}
                  scope="col"
                  className={cn("px-4 py-2.5 font-medium", meta?.className)}
                  aria-sort={active ? (active === "desc" ? "descending" : "ascending") : undefined}
                >
                  {columnSort && onSortChange ? (
                    <button
                      type="button"
                      className="inline-flex cursor-pointer items-center gap-1 rounded hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-ring"
                      onClick={() => onSortChange(nextSort(columnSort, sort))}
                    >
                      {title}
                      <SortIcon direction={active} />
                    </button>
                  ) : active ? (
                    <span className="inline-flex items-center gap-1">
                      {title}
                      <SortIcon direction={active} />
                    </span>
                  ) : (
                    title
                  )}
                </th>
              );
            })}
          </tr>
        ))}
      </thead>
      <tbody>
        {table.getRowModel().rows.map((row) => {
          const props = rowProps?.(row.original);
          const expanded = row.getIsExpanded() && renderExpanded;
          return (
            <Fragment key={row.id}>
              <tr {...props} className={cn(expanded ? "" : "border-b last:border-0", props?.className)}>
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id} className={cn("px-4 py-2.5 align-top", cell.column.columnDef.meta?.className)}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                ))}
              </tr>
              {expanded ? (
                <tr className="border-b last:border-0">
                  <td colSpan={row.getVisibleCells().length} className="px-4 pb-4">
                    {expanded(row.original)}
                  </td>
                </tr>
              ) : null}
            </Fragment>
          );
        })}
      </tbody>
      {footers.length > 0 ? (
        <tfoot className="border-t">
          {table.getFooterGroups().map((group) => (
            <tr key={group.id} className="font-semibold text-slate-900">
              {group.headers.map((header) => (
                <td key={header.id} className={cn("px-4 py-2.5", header.column.columnDef.meta?.className)}>
                  {flexRender(header.column.columnDef.footer, header.getContext())}
                </td>
              ))}
            </tr>
          ))}
        </tfoot>
      ) : null}
    </table>
  );
  // A table that may be wider than the screen scrolls in a region a keyboard can reach; others never scroll.
  return minWidth ? (
    <ScrollRegion label={label} className="rounded-lg border bg-white">
      {tableElement}
    </ScrollRegion>
  ) : (
    <div className="overflow-x-auto rounded-lg border bg-white">{tableElement}</div>
  );
}

/** A phone's card for a row without its own: each column's header and value, one under the other. */
function ColumnCard<T>({ row, headers }: { row: Row<T>; headers: Map<string, Header<T, unknown>> }) {
  return (
    <dl className="grid gap-2">
      {row.getVisibleCells().map((cell) => {
        const header = headers.get(cell.column.id);
        return (
          <div key={cell.id} className="grid gap-0.5">
            <dt className="text-xs text-muted-foreground">
              {header ? flexRender(cell.column.columnDef.header, header.getContext()) : null}
            </dt>
            <dd className="wrap-anywhere text-slate-900">
              {flexRender(cell.column.columnDef.cell, cell.getContext())}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

function SortIcon({ direction }: { direction: "asc" | "desc" | false }) {
  if (direction === "desc") return <ArrowDownIcon className="size-3.5" aria-hidden />;
  if (direction === "asc") return <ArrowUpIcon className="size-3.5" aria-hidden />;
  return <ChevronsUpDownIcon className="size-3.5 opacity-50" aria-hidden />;
}

type ColumnSort = { name: string; direction: "asc" | "desc"; reverse?: string };

/** Which way the rows run by this column under the list's sort, or false when another column orders them. */
function sortDirection(column: ColumnSort | undefined, sort: string): "asc" | "desc" | false {
  if (!column) return false;
  if (column.name === sort) return column.direction;
  if (column.reverse === sort) return column.direction === "asc" ? "desc" : "asc";
  return false;
}

/** The sort a click on this column's header selects: its own, or the reverse when its own is in use. */
function nextSort(column: ColumnSort, sort: string): string {
  return column.name === sort && column.reverse ? column.reverse : column.name;
}
