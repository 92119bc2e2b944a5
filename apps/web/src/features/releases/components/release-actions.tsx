import type { ReleaseDto } from "@tranche/domain";
import { RotateCwIcon, XCircleIcon } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Field, Textarea } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { ApiError, errorMessage } from "@/lib/api-client";
import { useReleaseAction } from "../api/release-action";

/** Re-instruct and Cancel, shown to an admin on a failed release; each asks for confirmation first. */
export function ReleaseActions({ release }: { release: ReleaseDto }) {
  const [open, setOpen] = useState<"reinstruct" | "cancel" | null>(null);
  if (!release.permissions.canReinstruct && !release.permissions.canCancel) return null;
  return (
    <div className="flex flex-wrap gap-2">
      {release.permissions.canReinstruct ? (
        <Button size="sm" variant="outline" onClick={() => setOpen("reinstruct")}>
          <RotateCwIcon aria-hidden /> Re-instruct
        </Button>
      ) : null}
      {release.permissions.canCancel ? (
        <Button size="sm" variant="outline" className="text-destructive" onClick={() => setOpen("cancel")}>
          <XCircleIcon aria-hidden /> Cancel release
        </Button>
      ) : null}
      {open ? <ReleaseActionDialog release={release} action={open} onClose={() => setOpen(null)} /> : null}
    </div>
  );
}

const TEXTS = {
  reinstruct: {
    title: "Re-instruct this release?",
    description: "The custodian receives a new instruction, with a new instruction id, for the same release.",
    confirm: "Re-instruct",
    pending: "Re-instructing...",
    done: "Release re-instructed",
  },
  cancel: {
    title: "Cancel this release?",
    description: "The capital is no longer counted as released. The milestone stays verified. This cannot be undone.",
    confirm: "Cancel release",
    pending: "Cancelling...",
    done: "Release cancelled",
  },
} as const;

function ReleaseActionDialog({
  release,
  action,
  onClose,
}: {
  release: ReleaseDto;
  action: "reinstruct" | "cancel";
  onClose: () => void;
}) {
  const mutation = useReleaseAction(release.id, action);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string>();
  const id = useId();
  const texts = TEXTS[action];

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (action === "cancel" && !reason.trim()) {
      setError("A reason for the cancellation is required.");
      return;
    }
    try {
      await mutation.mutateAsync({ reason: reason.trim() });
      toast.success(texts.done, `${release.milestone.name} (${release.project.name})`);
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.fieldErrors.reason) {
        setError(err.fieldErrors.reason);
        return;
      }
      toast.error("Could not update the release", errorMessage(err));
      onClose();
    }
  }

  return (
    <Dialog open onOpenChange={(next) => !next && onClose()}>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>{texts.title}</DialogTitle>
            <DialogDescription>{texts.description}</DialogDescription>
          </DialogHeader>
          {release.failure ? (
            <p className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
              The custodian reported: {release.failure.reason}
            </p>
          ) : null}
          {action === "cancel" ? (
            <Field id={`${id}-reason`} label="Reason" error={error}>
              <Textarea
                id={`${id}-reason`}
                value={reason}
                maxLength={2000}
                onChange={(e) => {
                  setReason(e.target.value);
                  setError(undefined);
                }}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-reason-error` : undefined}
                placeholder="Why this capital will not be released"
              />
            </Field>
          ) : null}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Keep as is
            </Button>
            <Button
              type="submit"
              variant={action === "cancel" ? "destructive" : "default"}
              disabled={mutation.isPending}
            >
              {mutation.isPending ? texts.pending : texts.confirm}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
