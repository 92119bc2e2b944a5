import { createColumnHelper } from "@tanstack/react-table";
import type { WebhookDeliveryDto } from "@tranche/domain";
import { useMemo } from "react";
import { PagedListState } from "@/components/paged-list-state";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DataTable } from "@/components/ui/data-table";
import { toast } from "@/components/ui/toaster";
import { errorMessage } from "@/lib/api-client";
import { useDeliveryAction, useWebhookDeliveries } from "../api/webhooks";
import { formatInstant } from "../format-instant";

const STATUS: Record<WebhookDeliveryDto["status"], { label: string; className: string }> = {
  pending: { label: "Pending", className: "border-amber-200 bg-amber-50 text-amber-800" },
  delivered: { label: "Delivered", className: "border-emerald-200 bg-emerald-50 text-emerald-800" },
  failed: { label: "Failed", className: "border-red-200 bg-red-50 text-red-800" },
};

const column = createColumnHelper<WebhookDeliveryDto>();
const lastAttempt = (d: WebhookDeliveryDto) => d.attempts[0];

function columns(endpointId: string) {
  return [
    column.accessor("eventType", {
      header: "Event",
      cell: (info) => <DeliveryEvent delivery={info.row.original} />,
    }),
    column.accessor((d) => lastAttempt(d)?.statusCode, {
      id: "http",
      header: "HTTP",
      meta: { className: "tabular-nums" },
      cell: (info) => info.getValue() ?? "—",
    }),
    column.accessor((d) => lastAttempt(d)?.durationMs, {
      id: "duration",
      header: "Duration",
      meta: { className: "whitespace-nowrap tabular-nums" },
      cell: (info) => (info.getValue() === undefined ? "—" : `${info.getValue()} ms`),
    }),
    column.display({
      id: "response",
      header: "Response",
      meta: { className: "max-w-xs" },
      cell: (info) => <DeliveryResponse delivery={info.row.original} />,
    }),
    column.display({
      id: "actions",
      header: () => <span className="sr-only">Actions</span>,
      meta: { className: "whitespace-nowrap text-right" },
      cell: (info) => <DeliveryAction endpointId={endpointId} delivery={info.row.original} />,
    }),
  ];
}

/** An endpoint's delivery log, newest first, a page at a time: each event, its last attempt, Retry now or Replay. */
export function DeliveryLog({ endpointId }: { endpointId: string }) {
  const deliveries = useWebhookDeliveries(endpointId);
  const logColumns = useMemo(() => columns(endpointId), [endpointId]);
  return (
    <PagedListState
      list={deliveries}
      noun="deliveries"
      empty="No deliveries yet"
      emptyHint="Events sent to this endpoint appear here."
    >
      <DataTable
        label="Delivery log, newest first"
        columns={logColumns}
        rows={deliveries.items}
        getRowId={(d) => d.id}
        minWidth="min-w-[44rem]"
        rowProps={() => ({ "data-testid": "webhook-delivery" })}
        renderCard={(d) => (
          <div className="grid gap-2">
            <DeliveryEvent delivery={d} />
            <p className="text-xs text-slate-700">
              HTTP {lastAttempt(d)?.statusCode ?? "—"}
              {lastAttempt(d) ? ` · ${lastAttempt(d).durationMs} ms` : ""}
            </p>
            <DeliveryResponse delivery={d} />
            <div>
              <DeliveryAction endpointId={endpointId} delivery={d} />
            </div>
          </div>
        )}
      />
    </PagedListState>
  );
}

/** The event, how its delivery stands, when it was last tried and how often, and when it is tried next. */
function DeliveryEvent({ delivery: d }: { delivery: WebhookDeliveryDto }) {
  const at = lastAttempt(d)?.at ?? d.createdAt;
  return (
    <div>
      <div className="flex flex-wrap items-center gap-2">
        <code className="text-xs font-medium text-slate-900">{d.eventType}</code>
        <Badge className={STATUS[d.status].className}>{STATUS[d.status].label}</Badge>
      </div>
      <p className="mt-1 text-xs text-slate-700">
        <time dateTime={at}>{formatInstant(at)}</time>
        {" · "}
        {d.attempts.length === 1 ? "1 attempt" : `${d.attempts.length} attempts`}
      </p>
      {d.nextAttemptAt ? (
        <p className="text-xs text-muted-foreground">Next attempt {formatInstant(d.nextAttemptAt)}</p>
      ) : null}
    </div>
  );
}

/** The receiver's last answer, opening to every attempt and the event body as sent. */
function DeliveryResponse({ delivery: d }: { delivery: WebhookDeliveryDto }) {
  const last = lastAttempt(d);
  if (!last) return <span className="text-muted-foreground">Not sent yet</span>;
  return (
    <details className="min-w-0">
      <summary className="cursor-pointer truncate text-slate-700">
        {last.error ?? (last.response || "(empty body)")}
      </summary>
      <ol className="mt-2 grid gap-2 text-xs">
        {d.attempts.map((a) => (
          <li key={a.at} className="rounded border bg-slate-50 p-2">
            <p className="font-medium">
              {formatInstant(a.at)} · {a.statusCode ?? "no answer"} · {a.durationMs} ms
            </p>
            {a.error ? <p className="text-red-800">{a.error}</p> : null}
            {a.response ? <pre className="mt-1 whitespace-pre-wrap break-all font-mono">{a.response}</pre> : null}
          </li>
        ))}
      </ol>
      <p className="mt-2 text-xs font-medium">Event body (webhook-id {d.id})</p>
      <pre className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap break-all rounded border bg-slate-50 p-2 font-mono text-xs">
        {JSON.stringify(d.payload, null, 2)}
      </pre>
    </details>
  );
}

/** Replay a delivered event (the same webhook-id), or retry one not yet delivered now instead of at its next try. */
function DeliveryAction({ endpointId, delivery }: { endpointId: string; delivery: WebhookDeliveryDto }) {
  const action = useDeliveryAction();
  const kind = delivery.status === "delivered" ? "replay" : "retry";
  const run = () =>
    action.mutate(
      { endpointId, deliveryId: delivery.id, action: kind },
      {
        onSuccess: () => toast.success(kind === "retry" ? "Retrying now" : "Replay queued", delivery.eventType),
        onError: (e) => toast.error("Could not send the delivery", errorMessage(e)),
      },
    );
  return (
    <Button size="sm" variant="outline" onClick={run} disabled={action.isPending}>
      {kind === "replay" ? "Replay" : "Retry now"}
    </Button>
  );
}
