import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  type WebhookEndpointDto,
  type WebhookEventType,
} from "@tranche/domain";
import { type FormEvent, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { ApiError, errorMessage } from "@/lib/api-client";
import { useFieldErrors } from "@/lib/use-field-errors";
import { useCreateWebhookEndpoint, useUpdateWebhookEndpoint } from "../api/webhooks";

/** Add an endpoint (its secret is then shown once) or edit one: URL, description and the events it receives. */
export function EndpointFormDialog({
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
  const { formRef, errors, setErrors, show } = useFieldErrors();
  const pending = create.isPending || update.isPending;
  const ids = { url: useId(), description: useId(), events: useId() };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (events.length === 0) {
      show({ events: "Choose at least one event type." });
      return;
    }
    const onError = (error: unknown) => {
      if (error instanceof ApiError && Object.keys(error.fieldErrors).length > 0) show(error.fieldErrors);
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
        <form ref={formRef} className="grid gap-4" onSubmit={submit} noValidate>
          <Field id={ids.url} label="Endpoint URL" error={errors.url}>
            <Input id={ids.url} type="url" value={url} onChange={(e) => setUrl(e.target.value)} required />
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
                    // The whole group is what is wrong: focus lands on its first box, described by the fieldset.
                    aria-invalid={errors.events ? true : undefined}
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
