import { type ColumnDef, flexRender, getCoreRowModel, type RowData, useReactTable } from "@tanstack/react-table";
import { ArrowDownIcon, ArrowUpIcon, ChevronsUpDownIcon } from "lucide-react";
import type { HTMLAttributes, ReactNode } from "react";
import { useMediaQuery } from "@/lib/use-media-query";
import { cn } from "@/lib/utils";

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

/**
 * A list as a table (TanStack Table) from tablets up and as cards on phones. Sorting is the server's: a sortable
 * header selects its sort, which the page keeps in the URL and sends with the query. Without `onSortChange` the
 * order is fixed: the header of the column it follows only says so (aria-sort).
 */
export function DataTable<T>({
  label,
  columns,
  rows,
  getRowId,
  sort,
  onSortChange,
  renderCard,
  rowProps,
}: {
  label: string;
  // Column value types differ per column (TanStack's own column helpers return this type).
  columns: ColumnDef<T, any>[];
  rows: T[];
  getRowId: (row: T) => string;
  sort: string;
  onSortChange?: (sort: string) => void;
  renderCard: (row: T) => ReactNode;
  rowProps?: (row: T) => DataRowProps;
}) {
  // One layout at a time, not both hidden by CSS: a row's ids and labelled controls stay unique in the page.
  const wide = useMediaQuery("(min-width: 48rem)");
  const table = useReactTable({
    data: rows,
    columns,
    getRowId,
    getCoreRowModel: getCoreRowModel(),
    // The rows arrive sorted by the server; the table only renders them.
    manualSorting: true,
  });
  if (!wide)
    return (
      <ul className="grid gap-3" aria-label={label}>
        {rows.map((row) => {
          const props = rowProps?.(row);
          return (
            <li
              key={getRowId(row)}
              {...props}
              className={cn("rounded-lg border bg-white p-4 text-sm", props?.className)}
            >
              {renderCard(row)}
            </li>
          );
        })}
      </ul>
    );
  return (
    <div className="overflow-x-auto rounded-lg border bg-white">
      <table className="w-full text-sm" aria-label={label}>
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
            return (
              <tr key={row.id} {...props} className={cn("border-b last:border-0", props?.className)}>
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id} className={cn("px-4 py-2.5 align-top", cell.column.columnDef.meta?.className)}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
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
