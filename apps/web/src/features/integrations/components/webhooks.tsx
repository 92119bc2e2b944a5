import type { WebhookEndpointDto } from "@tranche/domain";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { EmptyState, LoadError, Skeleton } from "@/components/ui/feedback";
import { useWebhookEndpoints } from "../api/webhooks";
import { DeleteEndpointDialog } from "./delete-endpoint-dialog";
import { EndpointFormDialog } from "./endpoint-form-dialog";
import { EndpointItem } from "./endpoint-item";
import { RotateSecretDialog } from "./rotate-secret-dialog";
import { SecretDialog } from "./secret-dialog";

type Dialogs =
  | { kind: "create" }
  | { kind: "edit"; endpoint: WebhookEndpointDto }
  | { kind: "secret"; url: string; secret: string; rotated: boolean }
  | { kind: "rotate"; endpoint: WebhookEndpointDto }
  | { kind: "delete"; endpoint: WebhookEndpointDto }
  | null;

/** Settings → Integrations → Webhooks (admins): endpoints, their secrets, and what was delivered. */
export function Webhooks() {
  const endpoints = useWebhookEndpoints();
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
        {endpoints.isPending ? (
          <div className="grid gap-2" aria-busy="true">
            <span className="sr-only">Loading webhook endpoints</span>
            <Skeleton className="h-16" />
            <Skeleton className="h-16" />
          </div>
        ) : endpoints.isError ? (
          <LoadError title="Could not load webhook endpoints" error={endpoints.error} onRetry={endpoints.refetch} />
        ) : endpoints.data.length === 0 ? (
          <EmptyState title="No webhook endpoints">
            Add an endpoint to send release instructions and other events to a custodian.
          </EmptyState>
        ) : (
          // Each endpoint is a panel of its own (its events, six actions and its delivery log), not a table row.
          <ul className="grid min-w-0 grid-cols-1 gap-4" aria-label="Webhook endpoints">
            {endpoints.data.map((endpoint) => (
              <EndpointItem
                key={endpoint.id}
                endpoint={endpoint}
                onEdit={() => setDialog({ kind: "edit", endpoint })}
                onRotate={() => setDialog({ kind: "rotate", endpoint })}
                onDelete={() => setDialog({ kind: "delete", endpoint })}
              />
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
        <RotateSecretDialog
          endpoint={dialog.endpoint}
          onClose={close}
          onRotated={(secret) => setDialog({ kind: "secret", url: dialog.endpoint.url, secret, rotated: true })}
        />
      ) : null}
      {dialog?.kind === "delete" ? <DeleteEndpointDialog endpoint={dialog.endpoint} onClose={close} /> : null}
    </Card>
  );
}
