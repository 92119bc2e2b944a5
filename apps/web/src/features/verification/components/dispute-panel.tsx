import { formatDateTime, type VerificationDto } from "@tranche/domain";
import { useId, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Field, NativeSelect, Textarea } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { errorMessage } from "@/lib/api-client";
import { useDisputeAction } from "../api/dispute";

export interface DisputeCandidate {
  id: string;
  name: string;
  organization: string | null;
}

const MIN_STATEMENT = 10;

// The forms unmount once their action succeeds (the permission is gone): the panel, which stays, owns the mutations
// so that their success toasts still run.
type DisputeAction = ReturnType<typeof useDisputeAction>;

/** The owner's Dispute (a statement) on a rejected milestone. */
function DisputeForm({ dispute }: { dispute: DisputeAction }) {
  const [open, setOpen] = useState(false);
  const [statement, setStatement] = useState("");
  const [error, setError] = useState<string>();
  const id = useId();
  if (!open) {
    return (
      <div>
        <Button variant="outline" onClick={() => setOpen(true)}>
          Dispute
        </Button>
      </div>
    );
  }
  const submit = () => {
    if (statement.trim().length < MIN_STATEMENT) {
      setError(`Say why the rejection should be reviewed (at least ${MIN_STATEMENT} characters).`);
      return;
    }
    setError(undefined);
    dispute.mutate(
      { statement: statement.trim() },
      {
        onSuccess: () => toast.success("Dispute opened", "An admin will assign a different verifier to review it."),
        onError: (e) => toast.error("Error opening the dispute", errorMessage(e)),
      },
    );
  };
  return (
    <form
      className="grid gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <Field id={id} label="Statement" error={error} hint="Why the rejection should be reviewed by another verifier.">
        <Textarea
          id={id}
          value={statement}
          maxLength={5000}
          aria-invalid={error ? true : undefined}
          onChange={(e) => setStatement(e.target.value)}
        />
      </Field>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="accent" disabled={dispute.isPending}>
          Submit dispute
        </Button>
        <Button type="button" variant="outline" onClick={() => setOpen(false)} disabled={dispute.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** An admin assigns a different verifier (one who took no part in the rejected round) to an open dispute. */
function AssignForm({
  verification: v,
  candidates,
  assign,
}: {
  verification: VerificationDto;
  /** Undefined while the project's team loads. */
  candidates: DisputeCandidate[] | undefined;
  assign: DisputeAction;
}) {
  const [verifierId, setVerifierId] = useState("");
  const id = useId();
  if (!candidates) return null;
  const decided = new Set(v.quorum.decisions.filter((d) => !d.voidedAt).map((d) => d.userId));
  const eligible = candidates.filter((c) => !decided.has(c.id) && c.id !== v.verifierId);
  if (eligible.length === 0) {
    return (
      <p className="text-sm text-muted-foreground">
        No other verifier is assigned to this project: add one on the project's Team tab to review the dispute.
      </p>
    );
  }
  return (
    <form
      className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end"
      onSubmit={(e) => {
        e.preventDefault();
        assign.mutate(
          { verifierId },
          {
            onSuccess: () => toast.success("Verifier assigned", "They will review the disputed rejection."),
            onError: (err) => toast.error("Error assigning the verifier", errorMessage(err)),
          },
        );
      }}
    >
      <Field id={id} label="Reviewing verifier">
        <NativeSelect id={id} value={verifierId} onChange={(e) => setVerifierId(e.target.value)} required>
          <option value="">Choose a verifier</option>
          {eligible.map((c) => (
            <option key={c.id} value={c.id}>
              {c.organization ? `${c.name} (${c.organization})` : c.name}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Button type="submit" variant="accent" disabled={assign.isPending || !verifierId}>
        Assign verifier
      </Button>
    </form>
  );
}

const OUTCOME = { approved: "Closed: approved on review", rejected: "Closed: rejection upheld" } as const;

/** The dispute of a rejection: the owner's statement, the verifier an admin assigned, and how it closed. */
export function DisputePanel({
  verification: v,
  candidates,
}: {
  verification: VerificationDto;
  candidates: DisputeCandidate[] | undefined;
}) {
  const dispute = useDisputeAction(v.milestoneId);
  const assign = useDisputeAction(v.milestoneId);
  const d = v.dispute;
  const { canDispute, canAssignDispute } = v.permissions;
  if (!d && !canDispute) return null;
  return (
    <section className="grid gap-3 rounded-md border border-slate-200 p-4" aria-label="Dispute">
      <h3 className="text-sm font-semibold text-slate-900">Dispute</h3>
      {d && !(canDispute && d.closedAt) ? (
        <div className="grid gap-2 text-sm">
          <div className="flex flex-wrap items-center gap-2">
            <Badge className={d.closedAt ? "bg-slate-200 text-slate-700" : "bg-amber-100 text-amber-800"}>
              {d.outcome ? OUTCOME[d.outcome] : "Open"}
            </Badge>
            <span className="text-muted-foreground">
              Opened by {d.openedByName} · {formatDateTime(d.openedAt)}
            </span>
          </div>
          <p className="whitespace-pre-wrap text-slate-800">{d.statement}</p>
          <p className="text-slate-700">
            {d.verifierName
              ? `Reviewing verifier: ${d.verifierName}${d.assignedAt ? ` (assigned ${formatDateTime(d.assignedAt)})` : ""}`
              : "Waiting for an admin to assign a different verifier."}
          </p>
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">
          If you believe the rejection is wrong, dispute it: an admin assigns a different verifier, whose decision
          closes the dispute.
        </p>
      )}
      {canDispute ? <DisputeForm dispute={dispute} /> : null}
      {canAssignDispute ? <AssignForm verification={v} candidates={candidates} assign={assign} /> : null}
    </section>
  );
}
