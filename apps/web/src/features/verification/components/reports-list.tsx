import { CHECKLIST_ITEMS, formatFileSize, formatLongDate, type VerificationReportDto } from "@tranche/domain";
import { Link } from "react-router";
import { PagedListState } from "@/components/paged-list-state";
import { SelectFilter } from "@/components/select-filter";
import { MilestoneStatusBadge } from "@/components/status-badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { useUrlState } from "@/lib/use-url-state";
import { useReports } from "../api/get-reports";

const DECISIONS = [
  { value: "all", label: "All decisions" },
  { value: "verified", label: "Verified" },
  { value: "rejected", label: "Rejected" },
];

/** Submitted verification reports the caller may see, newest first, a page at a time; the decision filter is in the URL. */
export function ReportsList() {
  const [view, setView] = useUrlState({ decision: "all" });
  const status = view.decision === "verified" || view.decision === "rejected" ? view.decision : undefined;
  const reports = useReports({ status });
  return (
    <div className="grid gap-4">
      <SelectFilter
        label="Decision"
        value={status ?? "all"}
        options={DECISIONS}
        onChange={(value) => setView({ decision: value })}
      />
      <PagedListState
        list={reports}
        noun="reports"
        empty={status ? "No reports with this decision" : "No reports submitted yet"}
        emptyHint="Verifiers submit a report after each decision."
      >
        <ReportCards reports={reports.items} />
      </PagedListState>
    </div>
  );
}

function ReportCards({ reports }: { reports: VerificationReportDto[] }) {
  return (
    <ul className="grid gap-4" aria-label="Verification reports">
      {reports.map((r) => {
        const done = CHECKLIST_ITEMS.filter((item) => r.checklist[item.key]).length;
        return (
          <li key={r.id}>
            <Card>
              <CardHeader>
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <div className="min-w-0">
                    <CardTitle>
                      <Link className="hover:underline" to={`/milestones/${r.milestoneId}`}>
                        {r.milestoneTitle}
                      </Link>
                    </CardTitle>
                    <p className="text-sm text-muted-foreground">{r.projectName}</p>
                  </div>
                  <MilestoneStatusBadge status={r.status} />
                </div>
              </CardHeader>
              <CardContent className="grid gap-2 text-sm">
                <p className="text-muted-foreground">
                  Submitted by {r.submittedBy.name} on {formatLongDate(r.createdAt)} · {done} of{" "}
                  {CHECKLIST_ITEMS.length} checklist items
                </p>
                <p className="whitespace-pre-wrap text-slate-700">{r.comments?.trim() || "No comments provided."}</p>
                {r.evidence.length ? (
                  <ul className="grid gap-1">
                    {r.evidence.map((file) => (
                      <li key={file.id} className="text-xs text-slate-600">
                        <span className="font-medium text-slate-800">{file.originalName}</span> ·{" "}
                        {formatFileSize(file.size)} · <span className="break-all font-mono">{file.sha256}</span>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </CardContent>
            </Card>
          </li>
        );
      })}
    </ul>
  );
}
