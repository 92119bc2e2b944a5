import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  type WebhookDeliveryDto,
  type WebhookEndpointDto,
  type WebhookEventType,
} from "@tranche/domain";
import { CheckIcon, CopyIcon } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { EmptyState, Skeleton } from "@/components/ui/feedback";
import { Field, Input } from "@/components/ui/input";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { toast } from "@/components/ui/toaster";
import { ApiError, errorMessage } from "@/lib/api-client";
import { cn } from "@/lib/utils";
import {
  useCreateWebhookEndpoint,
  useDeleteWebhookEndpoint,
  useDeliveryAction,
  useRotateWebhookSecret,
  useSendTestEvent,
  useUpdateWebhookEndpoint,
  useWebhookDeliveries,
  useWebhookEndpoints,
} from "./api/webhooks";

const when = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "long" });

type Dialogs =
  | { kind: "create" }
  | { kind: "edit"; endpoint: WebhookEndpointDto }
  | { kind: "secret"; url: string; secret: string; rotated: boolean }
  | { kind: "rotate"; endpoint: WebhookEndpointDto }
  | { kind: "delete"; endpoint: WebhookEndpointDto }
  | null;

/** Settings → Integrations → Webhooks (admins): endpoints, their secrets, and what was delivered. */
export function Webhooks() {
  const { data: endpoints, isPending, isError, error } = useWebhookEndpoints();
  const [dialog, setDialog] = useState<Dialogs>(null);
  const close = () => setDialog(null);
  return (
    <Card id="webhooks" className="min-w-0">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <h3 className="text-base font-semibold leading-tight tracking-tight">Webhooks</h3>
          <CardDescription>
            Signed event notifications (Standard Webhooks) to custodians and other systems. Failed deliveries are
            retried for 24 hours.
          </CardDescription>
        </div>
        <Button onClick={() => setDialog({ kind: "create" })}>Add endpoint</Button>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <div className="grid gap-2" aria-busy="true">
            <span className="sr-only">Loading webhook endpoints</span>
            <Skeleton className="h-16" />
            <Skeleton className="h-16" />
          </div>
        ) : isError ? (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(error, "Could not load webhook endpoints.")}
          </p>
        ) : endpoints.length === 0 ? (
          <EmptyState title="No webhook endpoints">
            Add an endpoint to send release instructions and other events to a custodian.
          </EmptyState>
        ) : (
          <ul className="grid min-w-0 grid-cols-1 gap-4" aria-label="Webhook endpoints">
            {endpoints.map((endpoint) => (
              <EndpointItem key={endpoint.id} endpoint={endpoint} onDialog={setDialog} />
            ))}
          </ul>
        )}
      </CardContent>

      {dialog?.kind === "create" || dialog?.kind === "edit" ? (
        <EndpointFormDialog
          endpoint={dialog.kind === "edit" ? dialog.endpoint : undefined}
          onClose={close}
          onCreated={(url, secret) => setDialog({ kind: "secret", url, secret, rotated: false })}
        />
      ) : null}
      {dialog?.kind === "secret" ? <SecretDialog {...dialog} onClose={close} /> : null}
      {dialog?.kind === "rotate" ? (
        <RotateDialog
          endpoint={dialog.endpoint}
          onClose={close}
          onRotated={(secret) => setDialog({ kind: "secret", url: dialog.endpoint.url, secret, rotated: true })}
        />
      ) : null}
      {dialog?.kind === "delete" ? <DeleteDialog endpoint={dialog.endpoint} onClose={close} /> : null}
    </Card>
  );
}

function EndpointItem({ endpoint, onDialog }: { endpoint: WebhookEndpointDto; onDialog: (d: Dialogs) => void }) {
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
          The previous secret also signs until {when.format(new Date(endpoint.previousSecretExpiresAt))}.
        </p>
      ) : null}
      <div className="mt-4 flex flex-wrap gap-2">
        <Button size="sm" variant="outline" onClick={() => onDialog({ kind: "edit", endpoint })}>
          Edit
        </Button>
        <Button size="sm" variant="outline" onClick={toggle} disabled={update.isPending}>
          {endpoint.enabled ? "Disable" : "Enable"}
        </Button>
        <Button size="sm" variant="outline" onClick={() => onDialog({ kind: "rotate", endpoint })}>
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
        <Button
          size="sm"
          variant="ghost"
          className="text-destructive"
          onClick={() => onDialog({ kind: "delete", endpoint })}
        >
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

const STATUS_STYLES: Record<WebhookDeliveryDto["status"], string> = {
  pending: "border-amber-200 bg-amber-50 text-amber-800",
  delivered: "border-emerald-200 bg-emerald-50 text-emerald-800",
  failed: "border-red-200 bg-red-50 text-red-800",
};
const STATUS_LABELS: Record<WebhookDeliveryDto["status"], string> = {
  pending: "Pending",
  delivered: "Delivered",
  failed: "Failed",
};

function DeliveryLog({ endpointId }: { endpointId: string }) {
  const { data, isPending, isError, error, hasNextPage, fetchNextPage, isFetchingNextPage } =
    useWebhookDeliveries(endpointId);
  const action = useDeliveryAction();
  const run = (delivery: WebhookDeliveryDto, kind: "retry" | "replay") =>
    action.mutate(
      { endpointId, deliveryId: delivery.id, action: kind },
      {
        onSuccess: () => toast.success(kind === "retry" ? "Retrying now" : "Replay queued", delivery.eventType),
        onError: (e) => toast.error("Could not send the delivery", errorMessage(e)),
      },
    );
  if (isPending) return <Skeleton className="h-24" aria-label="Loading the delivery log" />;
  if (isError)
    return (
      <p role="alert" className="text-sm text-destructive">
        {errorMessage(error, "Could not load the delivery log.")}
      </p>
    );
  const items = data.pages.flatMap((page) => page.items);
  if (items.length === 0) {
    return <EmptyState title="No deliveries yet">Events sent to this endpoint appear here.</EmptyState>;
  }
  return (
    <>
      <ScrollRegion label="Delivery log" className="rounded-md border">
        <table className="w-full min-w-[44rem] text-left text-sm">
          <caption className="sr-only">Delivery log, newest first</caption>
          <thead className="bg-muted text-slate-700">
            <tr>
              {["Event", "HTTP", "Duration", "Response", ""].map((h) => (
                <th key={h || "actions"} scope="col" className="px-3 py-2 font-medium">
                  {h || <span className="sr-only">Actions</span>}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y">
            {items.map((d) => {
              const last = d.attempts[0];
              return (
                <tr key={d.id} className="align-top" data-testid="webhook-delivery">
                  <td className="px-3 py-2">
                    <div className="flex flex-wrap items-center gap-2">
                      <code className="text-xs font-medium text-slate-900">{d.eventType}</code>
                      <Badge className={STATUS_STYLES[d.status]}>{STATUS_LABELS[d.status]}</Badge>
                    </div>
                    <p className="mt-1 text-xs text-slate-700">
                      <time dateTime={last?.at ?? d.createdAt}>{when.format(new Date(last?.at ?? d.createdAt))}</time>
                      {" · "}
                      {d.attempts.length === 1 ? "1 attempt" : `${d.attempts.length} attempts`}
                    </p>
                    {d.nextAttemptAt ? (
                      <p className="text-xs text-muted-foreground">
                        Next attempt {when.format(new Date(d.nextAttemptAt))}
                      </p>
                    ) : null}
                  </td>
                  <td className="px-3 py-2 tabular-nums">{last?.statusCode ?? "—"}</td>
                  <td className="whitespace-nowrap px-3 py-2 tabular-nums">{last ? `${last.durationMs} ms` : "—"}</td>
                  <td className="max-w-xs px-3 py-2">
                    {last ? (
                      <details>
                        <summary className="cursor-pointer truncate text-slate-700">
                          {last.error ?? (last.response || "(empty body)")}
                        </summary>
                        <ol className="mt-2 grid gap-2 text-xs">
                          {d.attempts.map((a) => (
                            <li key={a.at} className="rounded border bg-slate-50 p-2">
                              <p className="font-medium">
                                {when.format(new Date(a.at))} · {a.statusCode ?? "no answer"} · {a.durationMs} ms
                              </p>
                              {a.error ? <p className="text-red-800">{a.error}</p> : null}
                              {a.response ? (
                                <pre className="mt-1 whitespace-pre-wrap break-all font-mono">{a.response}</pre>
                              ) : null}
                            </li>
                          ))}
                        </ol>
                        <p className="mt-2 text-xs font-medium">Event body (webhook-id {d.id})</p>
                        <pre className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap break-all rounded border bg-slate-50 p-2 font-mono text-xs">
                          {JSON.stringify(d.payload, null, 2)}
                        </pre>
                      </details>
                    ) : (
                      <span className="text-muted-foreground">Not sent yet</span>
                    )}
                  </td>
                  <td className="whitespace-nowrap px-3 py-2 text-right">
                    {d.status === "delivered" ? (
                      <Button size="sm" variant="outline" onClick={() => run(d, "replay")} disabled={action.isPending}>
                        Replay
                      </Button>
                    ) : (
                      <Button size="sm" variant="outline" onClick={() => run(d, "retry")} disabled={action.isPending}>
                        Retry now
                      </Button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </ScrollRegion>
      {hasNextPage ? (
        <Button variant="outline" className="mt-3" onClick={() => fetchNextPage()} disabled={isFetchingNextPage}>
          {isFetchingNextPage ? "Loading..." : "Load more"}
        </Button>
      ) : null}
    </>
  );
}

function EndpointFormDialog({
  endpoint,
  onClose,
  onCreated,
}: {
  endpoint?: WebhookEndpointDto;
  onClose: () => void;
  onCreated: (url: string, secret: string) => void;
}) {
  const create = useCreateWebhookEndpoint();
  const update = useUpdateWebhookEndpoint();
  const [url, setUrl] = useState(endpoint?.url ?? "https://");
  const [description, setDescription] = useState(endpoint?.description ?? "");
  const [events, setEvents] = useState<WebhookEventType[]>(endpoint?.events ?? ["release.instructed"]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const pending = create.isPending || update.isPending;
  const ids = { url: useId(), description: useId(), events: useId() };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (events.length === 0) {
      setErrors({ events: "Choose at least one event type." });
      return;
    }
    const onError = (error: unknown) => {
      if (error instanceof ApiError && Object.keys(error.fieldErrors).length > 0) setErrors(error.fieldErrors);
      else setErrors({ form: errorMessage(error) });
    };
    if (endpoint) {
      update.mutate(
        { id: endpoint.id, url, description, events },
        {
          onSuccess: () => {
            toast.success("Endpoint saved", url);
            onClose();
          },
          onError,
        },
      );
    } else {
      create.mutate(
        { url, events, description: description || undefined },
        { onSuccess: (row) => onCreated(row.url, row.secret), onError },
      );
    }
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{endpoint ? "Edit endpoint" : "Add webhook endpoint"}</DialogTitle>
          <DialogDescription>
            Tranche POSTs each subscribed event to this URL, signed with its secret.
          </DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <Field id={ids.url} label="Endpoint URL" error={errors.url}>
            <Input
              id={ids.url}
              type="url"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              aria-invalid={!!errors.url}
              aria-describedby={errors.url ? `${ids.url}-error` : undefined}
              required
            />
          </Field>
          <Field id={ids.description} label="Description (optional)" error={errors.description}>
            <Input id={ids.description} value={description} onChange={(e) => setDescription(e.target.value)} />
          </Field>
          <fieldset className="grid gap-2" aria-describedby={errors.events ? `${ids.events}-error` : undefined}>
            <legend className="mb-1 text-sm font-medium text-slate-800">Events</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              {WEBHOOK_EVENT_TYPES.map((type) => (
                <label key={type} className="flex items-start gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="mt-0.5 size-4 accent-emerald-700"
                    checked={events.includes(type)}
                    onChange={(e) =>
                      setEvents((current) =>
                        e.target.checked ? [...current, type] : current.filter((t) => t !== type),
                      )
                    }
                  />
                  <span>
                    {WEBHOOK_EVENT_LABELS[type]}
                    <code className="block text-xs text-muted-foreground">{type}</code>
                  </span>
                </label>
              ))}
            </div>
            {errors.events ? (
              <p id={`${ids.events}-error`} role="alert" className="text-sm font-medium text-destructive">
                {errors.events}
              </p>
            ) : null}
          </fieldset>
          {errors.form ? (
            <p role="alert" className="text-sm font-medium text-destructive">
              {errors.form}
            </p>
          ) : null}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? "Saving..." : endpoint ? "Save endpoint" : "Create endpoint"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function SecretDialog({
  url,
  secret,
  rotated,
  onClose,
}: {
  url: string;
  secret: string;
  rotated: boolean;
  onClose: () => void;
}) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      toast.error("Could not copy", "Select the secret and copy it by hand.");
    }
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{rotated ? "New signing secret" : "Endpoint created"}</DialogTitle>
          <DialogDescription>
            Copy the signing secret for <span className="break-all font-mono">{url}</span> now: it is shown only once.
            {rotated ? " The previous secret keeps signing beside it for 24 hours." : ""}
          </DialogDescription>
        </DialogHeader>
        <div className="flex items-center gap-2">
          <Input
            readOnly
            aria-label="Signing secret"
            value={secret}
            onFocus={(e) => e.currentTarget.select()}
            className="min-w-0 flex-1 bg-slate-50 font-mono"
          />
          <Button type="button" variant="outline" size="icon" onClick={copy} aria-label="Copy secret">
            {copied ? <CheckIcon /> : <CopyIcon />}
          </Button>
        </div>
        <p className={cn("text-sm", copied ? "text-emerald-800" : "text-muted-foreground")} aria-live="polite">
          {copied ? "Copied to the clipboard." : "Receivers verify each webhook with it (Standard Webhooks)."}
        </p>
        <DialogFooter>
          <Button onClick={onClose}>Done</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function RotateDialog({
  endpoint,
  onClose,
  onRotated,
}: {
  endpoint: WebhookEndpointDto;
  onClose: () => void;
  onRotated: (secret: string) => void;
}) {
  const rotate = useRotateWebhookSecret();
  return (
    <AlertDialog open onOpenChange={(open) => !open && onClose()}>
      <AlertDialogContent>
        <AlertDialogTitle>Rotate the signing secret?</AlertDialogTitle>
        <AlertDialogDescription>
          A new secret signs every webhook to {endpoint.url} from now on. The current one keeps signing beside it for 24
          hours, so the receiver can switch without missing an event.
        </AlertDialogDescription>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction
            className="bg-primary hover:bg-navy-800"
            disabled={rotate.isPending}
            onClick={(e) => {
              e.preventDefault();
              rotate.mutate(endpoint.id, {
                onSuccess: (row) => onRotated(row.secret),
                onError: (error) => toast.error("Could not rotate the secret", errorMessage(error)),
              });
            }}
          >
            Rotate secret
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

function DeleteDialog({ endpoint, onClose }: { endpoint: WebhookEndpointDto; onClose: () => void }) {
  const remove = useDeleteWebhookEndpoint();
  return (
    <AlertDialog open onOpenChange={(open) => !open && onClose()}>
      <AlertDialogContent>
        <AlertDialogTitle>Delete this endpoint?</AlertDialogTitle>
        <AlertDialogDescription>
          Tranche stops sending to {endpoint.url} and its delivery log is deleted. This cannot be undone.
        </AlertDialogDescription>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction
            disabled={remove.isPending}
            onClick={(e) => {
              e.preventDefault();
              remove.mutate(endpoint.id, {
                onSuccess: () => {
                  toast.success("Endpoint deleted", endpoint.url);
                  onClose();
                },
                onError: (error) => toast.error("Could not delete the endpoint", errorMessage(error)),
              });
            }}
          >
            Delete endpoint
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
