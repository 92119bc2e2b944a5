import { type AuditEventDto, formatDateTime, formatMoney } from "@tranche/domain";
import { LoadError, Skeleton } from "@/components/ui/feedback";
import { useMilestoneHistory } from "../api/get-history";

const ACTION_LABELS: Record<string, string> = {
  "milestone.created": "Milestone created",
  "milestone.updated": "Milestone updated",
  "milestone.verification_started": "Verification started",
  "milestone.verification_resumed": "Verification resumed",
  "milestone.checklist_updated": "Checklist updated",
  "milestone.approval_recorded": "Approval recorded",
  "milestone.quorum_reached": "Approvals complete; awaiting an investor's countersignature",
  "milestone.approved": "Approved; capital released",
  "milestone.rejected": "Rejected",
  "milestone.resubmitted": "Resubmitted for verification",
  "milestone.delayed": "Marked as delayed",
  "milestone.disputed": "Rejection disputed",
  "milestone.dispute_assigned": "Verifier assigned to the dispute",
  "milestone.verification_overdue": "Verification overdue",
  "milestone.decisions_voided": "Decisions voided: the evidence changed",
  "evidence.uploaded": "Evidence uploaded",
  "evidence.removed": "Evidence removed",
  "report.submitted": "Verification report submitted",
  "release.settled": "Release settled by the custodian",
  "release.failed": "Release failed",
  "release.reinstructed": "Release re-instructed",
  "release.cancelled": "Release cancelled",
};

function detail(event: AuditEventDto): string | null {
  const data = (event.after ?? event.before) as Record<string, unknown> | null;
  if (event.entityType === "evidence" && data && typeof data.originalName === "string") return data.originalName;
  if (event.action === "milestone.rejected" && data && typeof data.comments === "string") return data.comments;
  if (event.action === "milestone.decisions_voided" && data) {
    if (Array.isArray(data.added)) return `Added ${data.added.join(", ")}`;
    if (typeof data.removed === "string") return `Removed ${data.removed}`;
  }
  // A partial approval releases a share and sends the milestone back for a follow-up verification.
  const release = data?.release as
    | { partial?: boolean; amount: number; remaining: number; currency: string }
    | undefined;
  if (event.action === "milestone.approved" && release?.partial) {
    return `Part released: ${formatMoney(release.amount, release.currency)}; ${formatMoney(release.remaining, release.currency)} stays open for a follow-up verification.`;
  }
  if (event.action === "release.settled" && data && typeof data.settlementReference === "string") {
    return `Reference ${data.settlementReference}`;
  }
  if (event.action === "release.failed" && data && typeof data.failureReason === "string") return data.failureReason;
  if (event.action === "release.cancelled" && data && typeof data.cancellationReason === "string") {
    return data.cancellationReason;
  }
  return null;
}

/** Who did what to a milestone, and when (from the audit record). */
export function MilestoneHistory({ milestoneId }: { milestoneId: string }) {
  const { data, isPending, isError, error, refetch } = useMilestoneHistory(milestoneId);
  if (isPending) return <Skeleton className="h-20" />;
  if (isError) return <LoadError title="Could not load the history" error={error} onRetry={refetch} />;
  if (data.length === 0) return <p className="text-sm text-muted-foreground">No history recorded yet.</p>;
  return (
    <ol className="grid gap-3 border-l border-slate-200 pl-4" aria-label="Milestone history">
      {data.map((event) => {
        const extra = detail(event);
        return (
          <li key={event.id} className="relative text-sm">
            <span className="absolute -left-[21px] top-1.5 size-2.5 rounded-full bg-slate-400" aria-hidden />
            <p className="font-medium text-slate-900">{ACTION_LABELS[event.action] ?? event.action}</p>
            <p className="text-xs text-muted-foreground">
              {event.actor?.name ?? "System"} · {formatDateTime(event.createdAt)}
            </p>
            {extra ? <p className="mt-0.5 break-words text-slate-700">{extra}</p> : null}
          </li>
        );
      })}
    </ol>
  );
}
