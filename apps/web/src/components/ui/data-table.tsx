import { type ColumnDef, flexRender, getCoreRowModel, type RowData, useReactTable } from "@tanstack/react-table";
import { ArrowDownIcon, ArrowUpIcon, ChevronsUpDownIcon } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "@/lib/utils";

declare module "@tanstack/react-table" {
  interface ColumnMeta<TData extends RowData, TValue> {
    /** The server sort this column's header selects (the list is sorted on the server, a page at a time). */
    sort?: { name: string; direction: "asc" | "desc" };
    className?: string;
  }
}

/**
 * A list as a table (TanStack Table) from tablets up and as cards on phones. Sorting is the server's: a sortable
 * header selects its sort, which the page keeps in the URL and sends with the query.
 */
export function DataTable<T>({
  label,
  columns,
  rows,
  getRowId,
  sort,
  onSortChange,
  renderCard,
}: {
  label: string;
  // Column value types differ per column (TanStack's own column helpers return this type).
  columns: ColumnDef<T, any>[];
  rows: T[];
  getRowId: (row: T) => string;
  sort: string;
  onSortChange: (sort: string) => void;
  renderCard: (row: T) => ReactNode;
}) {
  const table = useReactTable({
    data: rows,
    columns,
    getRowId,
    getCoreRowModel: getCoreRowModel(),
    // The rows arrive sorted by the server; the table only renders them.
    manualSorting: true,
  });
  return (
    <>
      <ul className="grid gap-3 md:hidden" aria-label={label}>
        {rows.map((row) => (
          <li key={getRowId(row)} className="rounded-lg border bg-white p-4 text-sm">
            {renderCard(row)}
          </li>
        ))}
      </ul>
      <div className="hidden overflow-hidden rounded-lg border bg-white md:block">
        <table className="w-full text-sm" aria-label={label}>
          <thead className="border-b bg-slate-50 text-left text-muted-foreground">
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const meta = header.column.columnDef.meta;
                  const active = meta?.sort?.name === sort ? meta.sort.direction : false;
                  const title = flexRender(header.column.columnDef.header, header.getContext());
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      className={cn("px-4 py-2.5 font-medium", meta?.className)}
                      aria-sort={active ? (active === "desc" ? "descending" : "ascending") : undefined}
                    >
                      {meta?.sort ? (
                        <button
                          type="button"
                          className="inline-flex cursor-pointer items-center gap-1 rounded hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-ring"
                          onClick={() => onSortChange(meta.sort?.name ?? sort)}
                        >
                          {title}
                          {active === "desc" ? (
                            <ArrowDownIcon className="size-3.5" aria-hidden />
                          ) : active === "asc" ? (
                            <ArrowUpIcon className="size-3.5" aria-hidden />
                          ) : (
                            <ChevronsUpDownIcon className="size-3.5 opacity-50" aria-hidden />
                          )}
                        </button>
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
            {table.getRowModel().rows.map((row) => (
              <tr key={row.id} className="border-b last:border-0">
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id} className={cn("px-4 py-2.5 align-top", cell.column.columnDef.meta?.className)}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
