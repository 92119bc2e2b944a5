import { createColumnHelper } from "@tanstack/react-table";
import { formatDateTime, formatMoney, type ReleaseDto } from "@tranche/domain";
import { Link } from "react-router";
import { ExportCsvLink } from "@/components/export-csv-link";
import { PagedListState } from "@/components/paged-list-state";
import { ReleaseStatusBadge } from "@/components/status-badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { useProjectReleases } from "../api/get-releases";
import { ReleaseActions } from "./release-actions";

/** What came back from the custodian, in a few words. */
function custodianAnswer(r: ReleaseDto): string {
  if (r.settlement) return `Reference ${r.settlement.reference}`;
  return r.failure?.reason ?? r.cancellation?.reason ?? "Awaiting settlement";
}

const column = createColumnHelper<ReleaseDto>();

const columns = [
  column.accessor((r) => r.milestone.name, {
    id: "milestone",
    header: "Milestone",
    meta: { className: "min-w-40 wrap-anywhere" },
    cell: (info) => <MilestoneLink release={info.row.original} />,
  }),
  column.accessor("amount", {
    header: "Amount",
    meta: { className: "whitespace-nowrap font-medium text-slate-900" },
    cell: (info) => formatMoney(info.getValue(), info.row.original.currency),
  }),
  column.accessor("status", {
    header: "Status",
    cell: (info) => <ReleaseStatusBadge status={info.getValue()} />,
  }),
  column.accessor(custodianAnswer, {
    id: "custodian",
    header: "Custodian",
    meta: { className: "min-w-32 max-w-xs text-slate-700" },
  }),
  column.accessor("updatedAt", {
    header: "Updated",
    meta: { className: "min-w-28 text-slate-700" },
    cell: (info) => <time dateTime={info.getValue()}>{formatDateTime(info.getValue())}</time>,
  }),
  column.display({
    id: "actions",
    header: () => <span className="sr-only">Actions</span>,
    meta: { className: "whitespace-nowrap" },
    cell: (info) => <ReleaseActions release={info.row.original} />,
  }),
];

/** A project's releases with their status, what the custodian reported, and an admin's actions. */
export function ProjectReleases({ projectId }: { projectId: string }) {
  const releases = useProjectReleases(projectId);
  return (
    <Card className="min-w-0">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <CardTitle>Releases</CardTitle>
          <CardDescription>What the custodian was instructed to pay, and what it reported back.</CardDescription>
        </div>
        {releases.items.length > 0 ? <ExportCsvLink path="/api/releases/export.csv" filters={{ projectId }} /> : null}
      </CardHeader>
      <CardContent>
        <PagedListState
          list={releases}
          noun="releases"
          empty="No releases yet"
          emptyHint="A release is instructed when a verifier approves a milestone."
        >
          <DataTable
            label="Releases, newest first"
            columns={columns}
            rows={releases.items}
            getRowId={(r) => r.id}
            rowProps={() => ({ "data-testid": "release-row" })}
            renderCard={(r) => <ReleaseCard release={r} />}
          />
        </PagedListState>
      </CardContent>
    </Card>
  );
}

function MilestoneLink({ release }: { release: ReleaseDto }) {
  return (
    <Link to={`/milestones/${release.milestone.id}`} className="font-medium text-blue-700 hover:underline">
      {release.milestone.name}
    </Link>
  );
}

/** A phone's card: every column of the table, the time of the last change included. */
function ReleaseCard({ release }: { release: ReleaseDto }) {
  return (
    <div className="grid gap-2">
      <div className="flex items-start justify-between gap-2">
        <span className="min-w-0 wrap-anywhere">
          <MilestoneLink release={release} />
        </span>
        <span className="whitespace-nowrap font-medium text-slate-900">
          {formatMoney(release.amount, release.currency)}
        </span>
      </div>
      <div className="grid justify-items-start gap-1 text-xs text-slate-700">
        <ReleaseStatusBadge status={release.status} />
        {custodianAnswer(release)}
        <span data-testid="release-updated-phone">
          Updated <time dateTime={release.updatedAt}>{formatDateTime(release.updatedAt)}</time>
        </span>
      </div>
      <ReleaseActions release={release} />
    </div>
  );
}
