import { createColumnHelper } from "@tanstack/react-table";
import {
  CHECKLIST_ITEMS,
  formatDate,
  formatFileSize,
  formatLongDate,
  type ReportSort,
  type VerificationReportDto,
} from "@tranche/domain";
import { Link } from "react-router";
import { MilestoneStatusBadge } from "@/components/status-badge";
import { DataTable } from "@/components/ui/data-table";

const column = createColumnHelper<VerificationReportDto>();
const checklistDone = (r: VerificationReportDto) => CHECKLIST_ITEMS.filter((item) => r.checklist[item.key]).length;

const columns = [
  column.accessor("milestoneTitle", {
    header: "Milestone",
    meta: { className: "min-w-48 wrap-anywhere" },
    cell: (info) => <MilestoneLink report={info.row.original} />,
  }),
  column.accessor("status", {
    header: "Decision",
    cell: (info) => <MilestoneStatusBadge status={info.getValue()} />,
  }),
  column.accessor("createdAt", {
    header: "Submitted",
    meta: { sort: { name: "newest", direction: "desc", reverse: "oldest" }, className: "whitespace-nowrap" },
    cell: (info) => (
      <div className="grid gap-0.5">
        <span>{formatDate(info.getValue())}</span>
        <span className="text-xs text-muted-foreground">{info.row.original.submittedBy.name}</span>
      </div>
    ),
  }),
  column.accessor(checklistDone, {
    id: "checklist",
    header: "Checklist",
    meta: { className: "whitespace-nowrap" },
    cell: (info) => `${info.getValue()} of ${CHECKLIST_ITEMS.length}`,
  }),
  column.accessor("evidence", {
    header: "Evidence",
    meta: { className: "max-w-56" },
    cell: (info) => <EvidenceNames evidence={info.getValue()} />,
  }),
  column.accessor("comments", {
    header: "Comments",
    meta: { className: "min-w-56 wrap-anywhere" },
    cell: (info) => <Comments comments={info.getValue()} clamp />,
  }),
];

/**
 * Verification reports, newest or oldest first (the Submitted header turns them round): a table from tablets up, a
 * card per report (with file hashes) on phones.
 */
export function ReportsTable({
  reports,
  sort,
  onSortChange,
}: {
  reports: VerificationReportDto[];
  sort: ReportSort;
  onSortChange: (sort: ReportSort) => void;
}) {
  return (
    <DataTable
      label="Verification reports"
      columns={columns}
      rows={reports}
      getRowId={(r) => r.id}
      sort={sort}
      onSortChange={(value) => onSortChange(value as ReportSort)}
      renderCard={(r) => <ReportCard report={r} />}
    />
  );
}

function ReportCard({ report: r }: { report: VerificationReportDto }) {
  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <MilestoneLink report={r} />
        <MilestoneStatusBadge status={r.status} />
      </div>
      <p className="text-muted-foreground">
        Submitted by {r.submittedBy.name} on {formatLongDate(r.createdAt)} · {checklistDone(r)} of{" "}
        {CHECKLIST_ITEMS.length} checklist items
      </p>
      <Comments comments={r.comments} />
      {r.evidence.length ? (
        <ul className="grid gap-1">
          {r.evidence.map((file) => (
            <li key={file.id} className="text-xs text-slate-600">
              <span className="font-medium text-slate-800 wrap-anywhere">{file.originalName}</span> ·{" "}
              {formatFileSize(file.size)} · <span className="break-all font-mono">{file.sha256}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function MilestoneLink({ report: r }: { report: VerificationReportDto }) {
  return (
    <div className="grid min-w-0 gap-0.5">
      <Link className="font-medium text-blue-700 wrap-anywhere hover:underline" to={`/milestones/${r.milestoneId}`}>
        {r.milestoneTitle}
      </Link>
      <span className="text-muted-foreground wrap-anywhere">{r.projectName}</span>
    </div>
  );
}

function Comments({ comments, clamp = false }: { comments: string | null; clamp?: boolean }) {
  const text = comments?.trim();
  if (!text) return <p className="text-muted-foreground">No comments provided.</p>;
  return (
    <p
      className={clamp ? "line-clamp-3 text-slate-700" : "whitespace-pre-wrap text-slate-700"}
      title={clamp ? text : undefined}
    >
      {text}
    </p>
  );
}

/** The evidence files by name; the table leaves their hashes to the milestone's page and the phone card. */
function EvidenceNames({ evidence }: { evidence: VerificationReportDto["evidence"] }) {
  if (!evidence.length) return <span className="text-muted-foreground">None</span>;
  return (
    <ul className="grid gap-0.5">
      {evidence.map((file) => (
        <li
          key={file.id}
          className="truncate"
          title={`${file.originalName} · ${formatFileSize(file.size)} · SHA-256 ${file.sha256}`}
        >
          {file.originalName}
        </li>
      ))}
    </ul>
  );
}
