import {
  daysUntil,
  formatCount,
  formatLongDate,
  formatMoney,
  LIMITS,
  type VerifierQueueDto,
  type VerifierQueueItemDto,
} from "@tranche/domain";
import { CalendarIcon, CheckCircle2Icon, ClipboardListIcon, FolderKanbanIcon } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { ListSearch } from "@/components/list-search";
import { PagedListState } from "@/components/paged-list-state";
import { PagingFooter } from "@/components/paging-footer";
import { MilestoneStatusBadge } from "@/components/status-badge";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { EmptyState, LoadError, Skeleton, Spinner } from "@/components/ui/feedback";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useCompletedVerifications } from "../api/get-completed";
import { usePendingVerifications } from "../api/get-pending";
import { useVerifierQueue } from "../api/get-queue";
import { VerificationDialog } from "./verification-dialog";

function StatCard({ label, value, icon: Icon }: { label: string; value: number; icon: typeof CalendarIcon }) {
  return (
    <Card>
      <CardContent className="flex items-center justify-between p-5">
        <div>
          <p className="text-sm text-muted-foreground">{label}</p>
          <p className="text-2xl font-semibold tabular-nums text-slate-900">{formatCount(value)}</p>
        </div>
        <Icon className="size-6 text-slate-400" aria-hidden />
      </CardContent>
    </Card>
  );
}

// A decided milestone is dated by its decision; an open one (a partly released one too) by its due date.
const decided = (item: VerifierQueueItemDto) => item.status === "verified" || item.status === "rejected";

function actionLabel(item: VerifierQueueItemDto): string {
  if (item.status === "pending") return "Start Verification";
  if (item.status === "in_verification") return "Continue Verification";
  if (item.status === "delayed") return "Resume Verification";
  return "View Verification";
}

function QueueItem({ item, onOpen }: { item: VerifierQueueItemDto; onOpen: (id: string) => void }) {
  const days = daysUntil(item.dueDate);
  const urgent = (item.status === "pending" || item.status === "in_verification") && days <= LIMITS.urgentWithinDays;
  return (
    <li>
      <Card>
        <CardContent className="grid gap-3 p-4 sm:p-5">
          <div className="flex flex-wrap items-start justify-between gap-2">
            <div className="min-w-0">
              <h3 className="break-words font-semibold text-slate-900">{item.title}</h3>
              <p className="break-words text-sm text-muted-foreground">{item.projectName}</p>
            </div>
            <div className="flex flex-wrap items-center gap-2">
              {urgent ? (
                <Badge className="border-red-200 bg-red-100 text-red-800">
                  {days < 0
                    ? "Urgent · Overdue"
                    : days === 0
                      ? "Due today"
                      : `Urgent · ${days} ${days === 1 ? "day" : "days"} left`}
                </Badge>
              ) : null}
              <MilestoneStatusBadge status={item.status} />
            </div>
          </div>
          <p className="line-clamp-2 text-sm text-slate-700">{item.description}</p>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600">
              <span className="inline-flex items-center gap-1">
                <CalendarIcon className="size-4" aria-hidden />
                {/* Said which date it is: on the Completed tab a bare decision date read as the due date. */}
                {decided(item) && item.verificationDate
                  ? `Decided ${formatLongDate(item.verificationDate)}`
                  : `Due ${formatLongDate(item.dueDate)}`}
              </span>
              <span className="whitespace-nowrap font-medium text-slate-800">
                {/* A decided milestone shows its amount; one partly released, what is still open of it. */}
                {!decided(item) && item.openAmount < item.capitalAmount
                  ? `${formatMoney(item.openAmount, item.currency)} open of ${formatMoney(item.capitalAmount, item.currency)}`
                  : formatMoney(item.capitalAmount, item.currency)}
              </span>
            </p>
            <div className="flex flex-wrap gap-2">
              <Button variant="outline" size="sm" asChild>
                <Link to={`/milestones/${item.milestoneId}`} aria-label={`View Details: ${item.title}`}>
                  View Details
                </Link>
              </Button>
              <Button variant="accent" size="sm" onClick={() => onOpen(item.milestoneId)}>
                {actionLabel(item)}
              </Button>
            </div>
          </div>
        </CardContent>
      </Card>
    </li>
  );
}

function QueueList({
  items,
  empty,
  onOpen,
  label,
}: {
  items: VerifierQueueItemDto[];
  empty: string;
  onOpen: (id: string) => void;
  label: string;
}) {
  if (items.length === 0) return <EmptyState title={empty} />;
  return (
    <ul className="grid gap-3" aria-label={label}>
      {items.map((item) => (
        <QueueItem key={item.milestoneId} item={item} onOpen={onOpen} />
      ))}
    </ul>
  );
}

/** Every decision of the verifier, a page at a time (the /verifications Completed tab). */
function AllCompleted({ onOpen }: { onOpen: (id: string) => void }) {
  const query = useCompletedVerifications();
  if (query.isPending) return <Spinner className="py-8" label="Loading completed verifications" />;
  if (query.isError) {
    return (
      <LoadError title="Could not load your completed verifications" error={query.error} onRetry={query.refetch} />
    );
  }
  const items = query.data.pages.flatMap((page) => page.items);
  const total = query.data.pages[0]?.total ?? items.length;
  return (
    <div className="grid gap-3">
      <QueueList items={items} empty="No recent verifications" onOpen={onOpen} label="Completed" />
      {items.length > 0 ? <PagingFooter list={{ ...query, items }} noun="decisions" total={total} /> : null}
    </div>
  );
}

/** What waits on the verifier, earliest due first, a page at a time; the search is the server's. */
function Pending({
  queue,
  queueUpdatedAt,
  onOpen,
}: {
  queue: VerifierQueueDto;
  queueUpdatedAt: number;
  onOpen: (id: string) => void;
}) {
  const [search, setSearch] = useState("");
  const list = usePendingVerifications(search, queue, queueUpdatedAt);
  return (
    <>
      <div className="flex max-w-md">
        <ListSearch
          label="Search pending verifications"
          placeholder="Search by title or description"
          value={search}
          onSearch={setSearch}
        />
      </div>
      <PagedListState
        list={list}
        noun="pending verifications"
        empty="No pending verification requests"
        emptyHint={search ? `No pending milestone’s title or description contains “${search}”.` : undefined}
        total={list.total}
      >
        <QueueList items={list.items} empty="No pending verification requests" onOpen={onOpen} label="Pending" />
      </PagedListState>
    </>
  );
}

/**
 * The verifier dashboard, on the signed-in verifier's live queue. On the dashboard the Completed tab shows the 5
 * most recent decisions (LIMITS.verifierCompleted); with `allCompleted` (the /verifications page) it lists them all,
 * a page at a time.
 */
export function VerifierDashboard({ allCompleted = false }: { allCompleted?: boolean }) {
  const { data, dataUpdatedAt, isPending, isError, error, refetch } = useVerifierQueue();
  const [openId, setOpenId] = useState<string | null>(null);

  if (isPending) {
    return (
      <div className="grid gap-4 sm:grid-cols-3">
        <Skeleton className="h-24" />
        <Skeleton className="h-24" />
        <Skeleton className="h-24" />
      </div>
    );
  }
  if (isError) return <LoadError title="Could not load your verification queue" error={error} onRetry={refetch} />;

  return (
    <div className="grid gap-6">
      <div className="grid gap-4 sm:grid-cols-3">
        <StatCard label="Assigned Projects" value={data.counts.assignedProjects} icon={FolderKanbanIcon} />
        <StatCard label="Pending Verifications" value={data.counts.pending} icon={ClipboardListIcon} />
        <StatCard label="Completed" value={data.counts.completed} icon={CheckCircle2Icon} />
      </div>
      <Tabs defaultValue="pending">
        <TabsList>
          <TabsTrigger value="pending">Pending</TabsTrigger>
          <TabsTrigger value="completed">Completed</TabsTrigger>
          <TabsTrigger value="delayed">Delayed</TabsTrigger>
        </TabsList>
        <TabsContent value="pending" className="grid gap-4">
          <Pending queue={data} queueUpdatedAt={dataUpdatedAt} onOpen={setOpenId} />
        </TabsContent>
        <TabsContent value="completed">
          {allCompleted ? (
            <AllCompleted onOpen={setOpenId} />
          ) : (
            <QueueList items={data.completed} empty="No recent verifications" onOpen={setOpenId} label="Completed" />
          )}
        </TabsContent>
        <TabsContent value="delayed">
          <QueueList items={data.delayed} empty="No delayed verifications" onOpen={setOpenId} label="Delayed" />
        </TabsContent>
      </Tabs>
      {openId ? (
        <VerificationDialog milestoneId={openId} open onOpenChange={(open) => !open && setOpenId(null)} />
      ) : null}
    </div>
  );
}
