import type { WebhookEndpointDto } from "@tranche/domain";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { toast } from "@/components/ui/toaster";
import { errorMessage } from "@/lib/api-client";
import { useRotateWebhookSecret } from "../api/webhooks";

/** Rotate an endpoint's signing secret, after confirming: the old one keeps signing beside the new for 24 hours. */
export function RotateSecretDialog({
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
