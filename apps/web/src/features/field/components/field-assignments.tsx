import { useQuery } from "@tanstack/react-query";
import { type FieldAssignmentDto, formatDate, formatDateTime, formatMoney, type UserDto } from "@tranche/domain";
import { ChevronRightIcon, HardDriveDownloadIcon } from "lucide-react";
import { Link } from "react-router";
import { MilestoneStatusBadge } from "@/components/status-badge";
import { Button } from "@/components/ui/button";
import { EmptyState, LoadError, Skeleton } from "@/components/ui/feedback";
import { useAssignments } from "../api/get-assignments";
import { fieldKeys } from "../api/keys";
import { type PositionState, usePosition } from "../hooks/use-position";
import { useQueue, useQueueSender } from "../hooks/use-queue";
import { savedVisitIds } from "../store/field-store";
import { clearSent } from "../store/queue";
import { QueueList } from "./queue-list";
import { PositionNote, SiteLine } from "./site-line";
import { UrgencyBadge } from "./urgency-badge";

function AssignmentCard({
  assignment: a,
  position,
  kept,
}: {
  assignment: FieldAssignmentDto;
  position: PositionState;
  kept: boolean;
}) {
  return (
    <li className="grid gap-3 rounded-lg border bg-white p-4 shadow-xs" data-testid="assignment">
      <div className="flex flex-wrap items-center gap-2">
        <UrgencyBadge urgency={a.urgency} />
        <MilestoneStatusBadge status={a.status} />
        {kept ? (
          <span className="inline-flex items-center gap-1 text-xs text-slate-600">
            <HardDriveDownloadIcon className="size-3.5" aria-hidden /> On this device
          </span>
        ) : null}
      </div>
      <div>
        <h2 className="text-base font-semibold text-slate-900">
          <Link to={`/field/milestones/${a.milestoneId}`} className="hover:underline">
            {a.title}
          </Link>
        </h2>
        <p className="text-sm text-slate-600">
          {a.projectName} · due {formatDate(a.dueDate)} · {formatMoney(a.openAmount, a.currency)}
        </p>
      </div>
      <SiteLine site={a.site} position={position} location={a.location} />
      <Button asChild variant="default" size="sm" className="justify-self-start">
        <Link to={`/field/milestones/${a.milestoneId}`} aria-label={`Open ${a.title}`}>
          Open assignment <ChevronRightIcon aria-hidden />
        </Link>
      </Button>
    </li>
  );
}

/** /field: the verifier's open assignments, most urgent first, with distance and directions; and the queue. */
export function FieldAssignments({ user }: { user: UserDto }) {
  const assignments = useAssignments(user);
  const position = usePosition();
  const queue = useQueue(user.id);
  useQueueSender(user.id, queue);
  const kept = useQuery({
    queryKey: [...fieldKeys.all, "kept", user.id, assignments.data?.savedAt],
    queryFn: () => savedVisitIds(user.id),
    networkMode: "always",
  });
  const unsent = queue?.filter((item) => item.status !== "sent") ?? [];

  return (
    <div className="grid gap-5">
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Today's assignments</h1>
        <PositionNote position={position} />
        {assignments.data?.source === "device" ? (
          <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" role="status">
            No connection: your assignments as kept on this device on {formatDateTime(assignments.data.savedAt)}.
          </p>
        ) : null}
      </div>

      {assignments.isPending ? (
        <div className="grid gap-3" aria-busy="true">
          <Skeleton className="h-40" />
          <Skeleton className="h-40" />
        </div>
      ) : assignments.isError ? (
        <LoadError title="Could not load your assignments" error={assignments.error} onRetry={assignments.refetch} />
      ) : assignments.data.items.length === 0 ? (
        <EmptyState title="No open assignments">Milestones waiting on you appear here, most urgent first.</EmptyState>
      ) : (
        <ul className="grid gap-3" aria-label="Assignments">
          {assignments.data.items.map((a) => (
            <AssignmentCard
              key={a.milestoneId}
              assignment={a}
              position={position}
              kept={kept.data?.has(a.milestoneId) ?? false}
            />
          ))}
        </ul>
      )}

      <section className="grid gap-2" aria-labelledby="queue-heading">
        <div className="flex items-center justify-between gap-2">
          <h2 id="queue-heading" className="text-lg font-semibold text-slate-900">
            Waiting to be sent{unsent.length ? ` (${unsent.length})` : ""}
          </h2>
          {queue?.some((item) => item.status === "sent") ? (
            <Button size="sm" variant="ghost" onClick={() => void clearSent(user.id)}>
              Clear sent
            </Button>
          ) : null}
        </div>
        {queue ? <QueueList items={queue} showMilestone /> : <Skeleton className="h-16" />}
      </section>
    </div>
  );
}
