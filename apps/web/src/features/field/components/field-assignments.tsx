import { useQuery } from "@tanstack/react-query";
import { type FieldAssignmentDto, formatDateTime, type UserDto } from "@tranche/domain";
import { ListSearch } from "@/components/list-search";
import { countOf, PagingFooter } from "@/components/paging-footer";
import { Button } from "@/components/ui/button";
import { EmptyState, LoadError, Skeleton } from "@/components/ui/feedback";
import { useAssignments } from "../api/get-assignments";
import { fieldKeys } from "../api/keys";
import { useAssignmentList } from "../hooks/use-assignment-list";
import { type PositionState, usePosition } from "../hooks/use-position";
import { useQueue, useQueueSender } from "../hooks/use-queue";
import { savedVisitIds } from "../store/field-store";
import { clearSent } from "../store/queue";
import { AssignmentCard } from "./assignment-card";
import { QueueList } from "./queue-list";
import { PositionNote } from "./site-line";

/** How many wait on the verifier, and how many of those are overdue: the list's first page shows only the top. */
function AssignmentsSummary({ items }: { items: FieldAssignmentDto[] }) {
  const overdue = items.filter((a) => a.urgency === "overdue").length;
  return (
    <p className="text-sm text-slate-700" data-testid="assignments-summary">
      {countOf(items.length, "open assignments")}
      {overdue ? ` · ${overdue} overdue` : ""}
    </p>
  );
}

/**
 * The open assignments, most urgent first, a page at a time; the search runs on the device, so it works with no
 * signal too. The queue below stays within reach however many assignments there are.
 */
function AssignmentList({
  user,
  items,
  position,
  kept,
}: {
  user: UserDto;
  items: FieldAssignmentDto[];
  position: PositionState;
  kept: Set<string> | undefined;
}) {
  const { search, setSearch, visible, total, list } = useAssignmentList(user.id, items);
  return (
    <div className="grid gap-3">
      <ListSearch
        label="Search assignments"
        placeholder="Search by title, project or place"
        value={search}
        onSearch={setSearch}
      />
      {visible.length === 0 ? (
        <EmptyState title="No assignment matches">
          No open assignment’s title, project or place contains “{search}”.
        </EmptyState>
      ) : (
        <>
          <ul className="grid gap-3" aria-label="Assignments">
            {visible.map((a) => (
              <AssignmentCard
                key={a.milestoneId}
                assignment={a}
                position={position}
                kept={kept?.has(a.milestoneId) ?? false}
              />
            ))}
          </ul>
          <PagingFooter list={list} noun="assignments" total={total} />
        </>
      )}
    </div>
  );
}

/**
 * /field: the verifier's open assignments, most urgent first, with distance and directions; and the queue. Every
 * open assignment, not only today's: overdue ones lead, and the rest are due weeks or months ahead.
 */
export function FieldAssignments({ user }: { user: UserDto }) {
  const assignments = useAssignments(user);
  const position = usePosition();
  const queue = useQueue(user.id);
  useQueueSender(user.id, queue);
  const kept = useQuery({
    queryKey: [...fieldKeys.all, "kept", user.id],
    queryFn: () => savedVisitIds(user.id),
    networkMode: "always",
    // Read again each time the list shows: opening an assignment keeps it, and the way back is this list (found
    // again with the search, it should say it is on this device). A read on the device, no request.
    staleTime: 0,
  });
  const unsent = queue?.filter((item) => item.status !== "sent") ?? [];

  return (
    <div className="grid gap-5">
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Your assignments</h1>
        {assignments.data?.items.length ? <AssignmentsSummary items={assignments.data.items} /> : null}
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
        <AssignmentList user={user} items={assignments.data.items} position={position} kept={kept.data} />
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
