import type { WebhookEndpointDto } from "@tranche/domain";
import { useId, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toaster";
import { errorMessage } from "@/lib/api-client";
import { useSendTestEvent, useUpdateWebhookEndpoint } from "../api/webhooks";
import { formatInstant } from "../format-instant";
import { DeliveryLog } from "./delivery-log";

/** One endpoint: its URL and events, why Tranche disabled it, its actions, and its delivery log on demand. */
export function EndpointItem({
  endpoint,
  onEdit,
  onRotate,
  onDelete,
}: {
  endpoint: WebhookEndpointDto;
  onEdit: () => void;
  onRotate: () => void;
  onDelete: () => void;
}) {
  const [showLog, setShowLog] = useState(false);
  const update = useUpdateWebhookEndpoint();
  const sendTest = useSendTestEvent();
  const logId = useId();
  const toggle = () =>
    update.mutate(
      { id: endpoint.id, enabled: !endpoint.enabled },
      {
        onSuccess: (row) => toast.success(row.enabled ? "Endpoint enabled" : "Endpoint disabled", row.url),
        onError: (e) => toast.error("Could not change the endpoint", errorMessage(e)),
      },
    );
  const test = () =>
    sendTest.mutate(endpoint.id, {
      onSuccess: () => {
        toast.success("Test event queued", "It appears in the delivery log as it is sent.");
        setShowLog(true);
      },
      onError: (e) => toast.error("Could not send the test event", errorMessage(e)),
    });
  return (
    <li className="min-w-0 rounded-lg border p-4" aria-label={endpoint.url}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 grid gap-1">
          <p className="break-all font-mono text-sm font-medium text-slate-900">{endpoint.url}</p>
          {endpoint.description ? <p className="text-sm text-slate-700">{endpoint.description}</p> : null}
        </div>
        <Badge
          className={
            endpoint.enabled
              ? "border-emerald-200 bg-emerald-50 text-emerald-800"
              : "border-slate-300 bg-slate-100 text-slate-700"
          }
        >
          {endpoint.enabled ? "Enabled" : "Disabled"}
        </Badge>
      </div>
      <ul className="mt-3 flex flex-wrap gap-1.5" aria-label="Subscribed events">
        {endpoint.events.map((type) => (
          <li key={type}>
            <code className="rounded bg-muted px-1.5 py-0.5 text-xs text-slate-800">{type}</code>
          </li>
        ))}
      </ul>
      {endpoint.disabledReason ? (
        <p role="alert" className="mt-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          Tranche disabled this endpoint: {endpoint.disabledReason}
        </p>
      ) : null}
      {endpoint.previousSecretExpiresAt ? (
        <p className="mt-3 text-xs text-muted-foreground">
          The previous secret also signs until {formatInstant(endpoint.previousSecretExpiresAt)}.
        </p>
      ) : null}
      <div className="mt-4 flex flex-wrap gap-2">
        <Button size="sm" variant="outline" onClick={onEdit}>
          Edit
        </Button>
        <Button size="sm" variant="outline" onClick={toggle} disabled={update.isPending}>
          {endpoint.enabled ? "Disable" : "Enable"}
        </Button>
        <Button size="sm" variant="outline" onClick={onRotate}>
          Rotate secret
        </Button>
        <Button size="sm" variant="outline" onClick={test} disabled={sendTest.isPending}>
          {sendTest.isPending ? "Sending..." : "Send test event"}
        </Button>
        <Button
          size="sm"
          variant="outline"
          aria-expanded={showLog}
          aria-controls={logId}
          onClick={() => setShowLog((v) => !v)}
        >
          {showLog ? "Hide delivery log" : "Delivery log"}
        </Button>
        <Button size="sm" variant="ghost" className="text-destructive" onClick={onDelete}>
          Delete
        </Button>
      </div>
      {showLog ? (
        <div id={logId} className="mt-4 min-w-0">
          <DeliveryLog endpointId={endpoint.id} />
        </div>
      ) : null}
    </li>
  );
}
