import type { ApiTokenDto } from "@tranche/domain";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { toast } from "@/components/ui/toaster";
import { errorMessage } from "@/lib/api-client";
import { useRevokeApiToken } from "../api/api-tokens";

/** Revoke a token, after confirming: every request with it is refused from then on. */
export function RevokeTokenDialog({ token, onClose }: { token: ApiTokenDto; onClose: () => void }) {
  const revoke = useRevokeApiToken();
  return (
    <ConfirmDialog
      title={`Revoke “${token.name}”?`}
      description="Every request with this token will be refused from now on. This cannot be undone."
      confirmLabel="Revoke"
      pendingLabel="Revoking..."
      onClose={onClose}
      onConfirm={() =>
        revoke.mutateAsync(token.id).then(
          () => toast.success("API token revoked", `${token.name} can no longer call the API.`),
          (error) => toast.error("Could not revoke the token", errorMessage(error)),
        )
      }
    />
  );
}
