import { CHECKLIST_ITEMS, formatFileSize, formatLongDate } from "@tranche/domain";
import { Link } from "react-router";
import { MilestoneStatusBadge } from "@/components/status-badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState, LoadError, Skeleton } from "@/components/ui/feedback";
import { useReports } from "../api/get-reports";

/** Submitted verification reports the caller may see, newest first. */
export function ReportsList() {
  const { data, isPending, isError, error, refetch } = useReports();
  if (isPending) return <Skeleton className="h-40" />;
  if (isError) return <LoadError title="Could not load reports" error={error} onRetry={refetch} />;
  if (data.length === 0) {
    return <EmptyState title="No reports submitted yet">Verifiers submit a report after each decision.</EmptyState>;
  }
  return (
    <ul className="grid gap-4" aria-label="Verification reports">
      {data.map((r) => {
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
