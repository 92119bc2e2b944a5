import type { WebhookEndpointDto } from "@tranche/domain";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { toast } from "@/components/ui/toaster";
import { errorMessage } from "@/lib/api-client";
import { useDeleteWebhookEndpoint } from "../api/webhooks";

/** Delete an endpoint and its delivery log, after confirming. */
export function DeleteEndpointDialog({ endpoint, onClose }: { endpoint: WebhookEndpointDto; onClose: () => void }) {
  const remove = useDeleteWebhookEndpoint();
  return (
    <ConfirmDialog
      title="Delete this endpoint?"
      description={`Tranche stops sending to ${endpoint.url} and its delivery log is deleted. This cannot be undone.`}
      confirmLabel="Delete endpoint"
      pendingLabel="Deleting..."
      onClose={onClose}
      onConfirm={() =>
        remove.mutateAsync(endpoint.id).then(
          () => toast.success("Endpoint deleted", endpoint.url),
          (error) => toast.error("Could not delete the endpoint", errorMessage(error)),
        )
      }
    />
  );
}
