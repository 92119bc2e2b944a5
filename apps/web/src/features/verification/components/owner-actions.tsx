import type { VerificationDto } from "@tranche/domain";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toaster";
import { errorMessage } from "@/lib/api-client";
import { useMilestoneAction } from "../api/milestone-action";

/** The owner's Resubmit (rejected → pending) and Mark as delayed (pending|rejected → delayed). */
export function OwnerActions({ verification: v }: { verification: VerificationDto }) {
  const resubmit = useMilestoneAction(v.milestoneId, "resubmit");
  const delay = useMilestoneAction(v.milestoneId, "delay");
  if (!v.permissions.canResubmit && !v.permissions.canDelay) return null;
  const busy = resubmit.isPending || delay.isPending;
  return (
    <div className="flex flex-wrap gap-2">
      {v.permissions.canResubmit ? (
        <Button
          variant="accent"
          disabled={busy}
          onClick={() =>
            resubmit.mutate(
              {},
              {
                onSuccess: () => toast.success("Milestone updated", "Resubmitted for verification."),
                onError: (e) => toast.error("Error updating status", errorMessage(e)),
              },
            )
          }
        >
          Resubmit
        </Button>
      ) : null}
      {v.permissions.canDelay ? (
        <Button
          variant="outline"
          disabled={busy}
          onClick={() =>
            delay.mutate(
              {},
              {
                onSuccess: () => toast.success("Milestone updated", "Marked as delayed."),
                onError: (e) => toast.error("Error updating status", errorMessage(e)),
              },
            )
          }
        >
          Mark as delayed
        </Button>
      ) : null}
    </div>
  );
}
