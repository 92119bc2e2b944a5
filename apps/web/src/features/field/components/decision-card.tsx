import { approveSchema, fieldErrors, rejectSchema } from "@tranche/domain";
import { CheckIcon, XIcon } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field, Input, Textarea } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";

export type Decision = { kind: "approve"; comments?: string; share?: number } | { kind: "reject"; comments: string };

/**
 * Approve (all of what is open, or a share with a reason) or reject (with a reason). The decision is queued with the
 * round and policy version on screen: if the milestone has moved on by the time it is sent, it is refused and comes
 * back to the verifier as a conflict, never applied to a milestone they did not see.
 */
export function DecisionCard({
  title,
  round,
  onDecide,
}: {
  title: string;
  round: number;
  onDecide: (decision: Decision) => Promise<void>;
}) {
  const id = useId();
  const [comments, setComments] = useState("");
  const [share, setShare] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [confirming, setConfirming] = useState<Decision | null>(null);

  function check(kind: Decision["kind"]) {
    const input =
      kind === "approve"
        ? { comments: comments.trim() || undefined, share: share.trim() ? Number(share) : undefined }
        : { comments };
    const checked = kind === "approve" ? approveSchema.safeParse(input) : rejectSchema.safeParse(input);
    if (!checked.success) {
      setErrors(fieldErrors(checked.error));
      return;
    }
    setErrors({});
    setConfirming({ kind, ...checked.data } as Decision);
  }

  async function decide(decision: Decision) {
    try {
      await onDecide(decision);
      toast.success(
        decision.kind === "approve" ? "Approval queued" : "Rejection queued",
        "Sent as soon as there is a connection.",
      );
    } catch (error) {
      toast.error("Not queued", error instanceof Error ? error.message : String(error));
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Decision</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <Field id={`${id}-comments`} label="Comments" error={errors.comments}>
          <Textarea
            id={`${id}-comments`}
            value={comments}
            onChange={(e) => setComments(e.target.value)}
            placeholder="Required to reject; explain a partial approval"
            aria-invalid={!!errors.comments}
          />
        </Field>
        <Field
          id={`${id}-share`}
          label="Approve only a share (%)"
          error={errors.share}
          hint="Leave empty to release all of what is open."
        >
          <Input
            id={`${id}-share`}
            type="number"
            inputMode="decimal"
            min={1}
            max={100}
            step="0.01"
            value={share}
            onChange={(e) => setShare(e.target.value)}
            aria-invalid={!!errors.share}
          />
        </Field>
        <div className="grid grid-cols-2 gap-2">
          <Button type="button" variant="accent" onClick={() => check("approve")}>
            <CheckIcon aria-hidden /> Approve
          </Button>
          <Button type="button" variant="destructive" onClick={() => check("reject")}>
            <XIcon aria-hidden /> Reject
          </Button>
        </div>
        {confirming ? (
          <ConfirmDialog
            title={confirming.kind === "approve" ? `Approve “${title}”?` : `Reject “${title}”?`}
            description={`Your decision is for verification round ${round}. It is sent as soon as there is a connection; if the milestone has changed by then, it comes back to you as a conflict instead of being applied.`}
            confirmLabel={confirming.kind === "approve" ? "Approve" : "Reject"}
            pendingLabel="Queuing..."
            onClose={() => setConfirming(null)}
            onConfirm={() => decide(confirming)}
          />
        ) : null}
      </CardContent>
    </Card>
  );
}
