import type { UserAdminDto } from "@tranche/domain";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { toast } from "@/components/ui/toaster";
import { errorMessage } from "@/lib/api-client";
import { useResetSecondFactor } from "../api/reset-second-factor";

/**
 * For a person who lost their second factor (phone, recovery codes, passkeys): removes it after a confirmation that
 * says what happens. Offered only to someone who has one, never for oneself (that is Account → Security).
 */
export function SecondFactorReset({ user, isSelf }: { user: UserAdminDto; isSelf: boolean }) {
  const reset = useResetSecondFactor();
  const [confirming, setConfirming] = useState(false);
  if (!user.hasSecondFactor || isSelf) return null;
  return (
    <>
      <Button
        variant="link"
        size="sm"
        className="h-auto justify-self-start p-0 text-xs"
        onClick={() => setConfirming(true)}
      >
        Reset second factor
        <span className="sr-only"> of {user.name}</span>
      </Button>
      {confirming ? (
        <ConfirmDialog
          title={`Reset ${user.name}'s second factor?`}
          description={`${user.name}'s authenticator app, recovery codes and passkeys will be removed, and every session they have will be signed out. They will set up a second factor again the next time they sign in with their password. The reset is recorded in the audit log, and ${user.name} is told by email.`}
          confirmLabel="Reset second factor"
          pendingLabel="Resetting..."
          onClose={() => setConfirming(false)}
          onConfirm={() =>
            reset
              .mutateAsync(user.id)
              .then((result) =>
                toast.success(
                  "Second factor reset",
                  `${result.user.name} is signed out and will set up a new second factor at their next sign-in.`,
                ),
              )
              .catch((error) => toast.error("Error resetting second factor", errorMessage(error)))
          }
        />
      ) : null}
    </>
  );
}
