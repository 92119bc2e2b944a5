import { formatDateTime } from "@tranche/domain";
import { CheckIcon, CircleAlertIcon, ClockIcon, LoaderCircleIcon, TriangleAlertIcon } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import {
  discard,
  isConflict,
  QUEUE_STATUS_LABELS,
  type QueueAction,
  type QueueItem,
  type QueueStatus,
  sendAgain,
} from "../store/queue";

const STATUS_STYLE: Record<QueueStatus, { className: string; Icon: typeof ClockIcon }> = {
  waiting: { className: "border-slate-200 bg-slate-100 text-slate-700", Icon: ClockIcon },
  sending: { className: "border-blue-200 bg-blue-100 text-blue-800", Icon: LoaderCircleIcon },
  sent: { className: "border-green-200 bg-green-100 text-green-800", Icon: CheckIcon },
  needs_attention: { className: "border-red-200 bg-red-100 text-red-800", Icon: CircleAlertIcon },
};

export function QueueStatusBadge({ status }: { status: QueueStatus }) {
  const { className, Icon } = STATUS_STYLE[status];
  return (
    <Badge className={cn("gap-1", className)} data-status={status}>
      <Icon className={cn("size-3", status === "sending" && "animate-spin")} aria-hidden />
      {QUEUE_STATUS_LABELS[status]}
    </Badge>
  );
}

/** What an item does, in a few words. */
export function actionLabel(action: QueueAction): string {
  switch (action.kind) {
    case "start":
      return "Start verification";
    case "checklist":
      return "Checklist and notes";
    case "evidence":
      return `Capture: ${action.name}`;
    case "approve":
      return action.share !== undefined && action.share < 100 ? `Approve ${action.share}%` : "Approve";
    case "reject":
      return "Reject";
  }
}

const isDecision = (item: QueueItem) => item.kind === "approve" || item.kind === "reject" || item.kind === "start";

/**
 * The ordered queue with each item's status. An item that needs attention says why; the verifier sends it again
 * (against the milestone as it is now, when `current` is known) or discards it. Nothing after it is sent meanwhile.
 */
export function QueueList({
  items,
  current,
  showMilestone = false,
}: {
  items: QueueItem[];
  /** The milestone as the server has it now (the assignment page, online): a conflicted item can be re-aimed. */
  current?: { round: number; policyVersion: number } | null;
  showMilestone?: boolean;
}) {
  if (items.length === 0) return <p className="text-sm text-slate-600">Nothing waits to be sent.</p>;
  const blockedAt = items.find((item) => item.status === "needs_attention")?.seq;
  return (
    <ol className="grid gap-2" aria-label="Queue">
      {items.map((item, index) => (
        <li
          key={item.seq}
          className={cn(
            "grid gap-1.5 rounded-md border bg-white p-3 text-sm",
            item.status === "needs_attention" && "border-red-300",
          )}
          data-testid="queue-item"
          data-kind={item.kind}
          data-status={item.status}
        >
          <div className="flex items-start justify-between gap-2">
            <span className="min-w-0">
              <span className="mr-1.5 text-xs tabular-nums text-slate-500">{index + 1}.</span>
              <span className="font-medium text-slate-900">{actionLabel(item.action)}</span>
              {showMilestone ? (
                <Link
                  to={`/field/milestones/${item.milestoneId}`}
                  className="block truncate text-xs text-blue-700 hover:underline"
                >
                  {item.action.title}
                </Link>
              ) : null}
            </span>
            <QueueStatusBadge status={item.status} />
          </div>
          <p className="text-xs text-slate-500">
            Done {formatDateTime(item.createdAt)} · round {item.action.round}
            {item.status === "waiting" && blockedAt !== undefined && item.seq > blockedAt
              ? " · waits for the item that needs attention"
              : ""}
          </p>
          {item.status === "needs_attention" && item.problem ? (
            <div className="grid gap-2 rounded-md bg-red-50 p-2 text-red-900" role="alert">
              <p className="flex gap-1.5 text-xs">
                <TriangleAlertIcon className="mt-0.5 size-3.5 shrink-0" aria-hidden />
                <span>
                  {isConflict(item.problem) ? (
                    <span className="font-semibold">Conflict: the milestone changed while you were away. </span>
                  ) : null}
                  {item.problem.message}
                </span>
              </p>
              <div className="flex flex-wrap gap-2">
                {isConflict(item.problem) ? (
                  current && !isDecision(item) ? (
                    <Button size="sm" variant="outline" onClick={() => void sendAgain(item.seq, current)}>
                      Send for round {current.round}
                    </Button>
                  ) : null
                ) : (
                  <Button size="sm" variant="outline" onClick={() => void sendAgain(item.seq)}>
                    Send again
                  </Button>
                )}
                <Button size="sm" variant="ghost" className="text-destructive" onClick={() => void discard(item.seq)}>
                  Discard
                </Button>
              </div>
            </div>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
