import { createColumnHelper } from "@tanstack/react-table";
import type { VerifierDto, VerifierSort } from "@tranche/domain";
import { AlertTriangleIcon, StarIcon } from "lucide-react";
import { DataTable } from "@/components/ui/data-table";
import { formatTurnaround, VerifierTurnaround } from "@/components/verifier-turnaround";
import { cn } from "@/lib/utils";

const column = createColumnHelper<VerifierDto>();
const number = "text-right tabular-nums";

const columns = [
  column.accessor("name", {
    header: "Verifier",
    meta: { sort: { name: "name", direction: "asc" }, className: "min-w-48 wrap-anywhere" },
    cell: (info) => (
      <div className="grid gap-0.5">
        <span className="font-medium text-slate-900">{info.getValue()}</span>
        <span className="text-muted-foreground">{info.row.original.organization ?? "Independent Verifier"}</span>
        <Email email={info.row.original.email} className="text-xs" />
      </div>
    ),
  }),
  column.accessor("rating", {
    header: "Rating",
    meta: { sort: { name: "rating", direction: "desc" } },
    cell: (info) => <Rating rating={info.getValue()} />,
  }),
  column.accessor("expertise", {
    header: "Expertise",
    meta: { className: "hidden lg:table-cell" },
    cell: (info) => <Expertise expertise={info.getValue()} />,
  }),
  column.accessor("completedVerifications", {
    header: "Completed",
    meta: { sort: { name: "completed", direction: "desc" }, className: number },
  }),
  column.accessor("projectCount", { header: "Projects", meta: { className: number } }),
  column.accessor("turnaround", {
    id: "turnaround",
    header: "Median turnaround",
    meta: { className: number },
    cell: (info) => (
      <div className="grid gap-0.5 whitespace-nowrap">
        <span>{formatTurnaround(info.getValue().medianHours)}</span>
        <span className="text-xs text-muted-foreground">90th pct. {formatTurnaround(info.getValue().p90Hours)}</span>
      </div>
    ),
  }),
  column.accessor((v) => v.turnaround.open, { id: "open", header: "Open", meta: { className: number } }),
  column.accessor((v) => v.turnaround, {
    id: "overdue",
    header: "Overdue",
    meta: { className: number },
    cell: (info) => <Overdue {...info.getValue()} />,
  }),
];

/**
 * The verifiers directory (name, organization, rating, expertise, completed, projects) with each verifier's
 * turnaround: a table sorted on the server from tablets up, a card per verifier on phones.
 */
export function VerifierDirectory({
  verifiers,
  sort,
  onSortChange,
}: {
  verifiers: VerifierDto[];
  sort: VerifierSort;
  onSortChange: (sort: VerifierSort) => void;
}) {
  return (
    <DataTable
      label="Verifiers"
      columns={columns}
      rows={verifiers}
      getRowId={(v) => v.id}
      sort={sort}
      onSortChange={(value) => onSortChange(value as VerifierSort)}
      rowProps={() => ({ "data-testid": "verifier-card" })}
      renderCard={(v) => <VerifierCard verifier={v} />}
    />
  );
}

function VerifierCard({ verifier: v }: { verifier: VerifierDto }) {
  return (
    <div className="grid gap-3">
      <div>
        <div className="flex items-start justify-between gap-2">
          <h3 className="font-semibold text-slate-900 wrap-anywhere">{v.name}</h3>
          {v.rating !== null ? <Rating rating={v.rating} /> : null}
        </div>
        <p className="text-muted-foreground">{v.organization ?? "Independent Verifier"}</p>
      </div>
      <Email email={v.email} />
      <Expertise expertise={v.expertise} />
      <dl className="grid grid-cols-2 gap-2 border-t pt-3">
        <div>
          <dt className="text-muted-foreground">Completed verifications</dt>
          <dd className="font-semibold text-slate-900">{v.completedVerifications}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Projects</dt>
          <dd className="font-semibold text-slate-900">{v.projectCount}</dd>
        </div>
      </dl>
      <VerifierTurnaround turnaround={v.turnaround} />
    </div>
  );
}

function Email({ email, className }: { email: string; className?: string }) {
  return (
    <a href={`mailto:${email}`} className={cn("truncate text-blue-700 hover:underline", className)} title={email}>
      {email}
    </a>
  );
}

function Rating({ rating }: { rating: number | null }) {
  if (rating === null) return <span className="text-muted-foreground">—</span>;
  return (
    <span className="flex items-center gap-1 font-medium whitespace-nowrap text-slate-800">
      <StarIcon className="size-4 fill-amber-400 text-amber-500" aria-hidden />
      <span className="sr-only">Rating</span>
      {rating.toFixed(1)}
    </span>
  );
}

function Expertise({ expertise }: { expertise: string[] }) {
  if (!expertise.length) return null;
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label="Expertise">
      {expertise.map((e) => (
        <li key={e} className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs whitespace-nowrap text-slate-700">
          {e}
        </li>
      ))}
    </ul>
  );
}

/** Open verifications past the SLA, in red with a warning sign when there are any. */
function Overdue({ overdue, slaDays }: { overdue: number; slaDays: number }) {
  return (
    <span
      className={cn("inline-flex items-center gap-1", overdue > 0 && "font-semibold text-red-700")}
      title={`Open longer than ${slaDays} ${slaDays === 1 ? "day" : "days"}`}
    >
      {overdue > 0 ? <AlertTriangleIcon className="size-4" aria-hidden /> : null}
      {overdue}
    </span>
  );
}
