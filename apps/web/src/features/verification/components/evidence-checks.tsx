import { useQueryClient } from "@tanstack/react-query";
import { type EvidenceDto, type EvidenceFlagDto, formatLongDate, formatMoney } from "@tranche/domain";
import { LoaderCircleIcon, ScanTextIcon } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { EvidenceFlags } from "@/components/evidence-tags";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { errorMessage } from "@/lib/api-client";
import { useDismissFlag, useEvidenceChecks } from "../api/evidence-checks";
import { verificationKeys } from "../api/keys";

const KIND_LABEL = {
  invoice: "Invoice",
  certificate: "Certificate",
  inspection_report: "Inspection report",
  other: "Document",
} as const;

/** Dismiss with a reason, inline under the flag (a verifier of the project; the server checks). */
function DismissFlag({ evidenceId, flag }: { evidenceId: string; flag: EvidenceFlagDto }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const id = useId();
  const dismiss = useDismissFlag(evidenceId);
  if (!open) {
    return (
      <Button variant="link" size="sm" className="h-auto p-0 text-xs" onClick={() => setOpen(true)}>
        Dismiss…
      </Button>
    );
  }
  return (
    <form
      className="mt-1 grid gap-1"
      onSubmit={(e) => {
        e.preventDefault();
        dismiss
          .mutateAsync({ code: flag.code, reason })
          .then(() => toast.success("Flag dismissed", "The reason is kept with the flag and in the audit log."))
          .catch((error) => toast.error("Could not dismiss the flag", errorMessage(error)));
      }}
    >
      <label htmlFor={id} className="text-xs font-medium">
        Why does this flag not apply?
      </label>
      <Textarea
        id={id}
        className="min-h-12 text-xs"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        required
        minLength={3}
        maxLength={1000}
      />
      <span className="flex gap-2">
        <Button type="submit" size="sm" disabled={dismiss.isPending || reason.trim().length < 3}>
          Dismiss flag
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </span>
    </form>
  );
}

/**
 * A file's background checks: a note while they run, the fields read from a document, and its flags (the same list as
 * the evidence item's), with dismiss for a verifier.
 */
export function EvidenceChecks({ item, canDismiss }: { item: EvidenceDto; canDismiss: boolean }) {
  const { data } = useEvidenceChecks(item.id);
  const queryClient = useQueryClient();
  const status = data?.status;
  const previous = useRef(status);
  // When the checks finish, the milestone's list is read again so its flags are the new ones.
  useEffect(() => {
    if (previous.current === "pending" && status && status !== "pending") {
      void queryClient.invalidateQueries({ queryKey: verificationKeys.evidence(item.milestoneId) });
    }
    previous.current = status;
  }, [status, item.milestoneId, queryClient]);

  const extracted = data?.extracted;
  return (
    <div className="grid gap-1" data-testid="evidence-checks">
      {status === "pending" ? (
        <p className="flex items-center gap-1 text-xs text-muted-foreground">
          <LoaderCircleIcon className="size-3.5 animate-spin" aria-hidden /> Checking the file…
        </p>
      ) : null}
      {status === "failed" ? (
        <p className="text-xs text-muted-foreground">The automatic checks could not read this file.</p>
      ) : null}
      {extracted ? (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 rounded-md bg-slate-50 px-2 py-1.5 text-xs">
          <dt className="col-span-2 flex items-center gap-1 font-semibold text-slate-800">
            <ScanTextIcon className="size-3.5" aria-hidden /> Read from the file: {KIND_LABEL[extracted.kind]}
          </dt>
          {extracted.issuer ? (
            <>
              <dt className="text-muted-foreground">Issuer</dt>
              <dd>{extracted.issuer}</dd>
            </>
          ) : null}
          {extracted.documentNumber ? (
            <>
              <dt className="text-muted-foreground">Number</dt>
              <dd className="font-mono">{extracted.documentNumber}</dd>
            </>
          ) : null}
          {extracted.issueDate ? (
            <>
              <dt className="text-muted-foreground">Date</dt>
              <dd>{formatLongDate(extracted.issueDate)}</dd>
            </>
          ) : null}
          {extracted.total !== null ? (
            <>
              <dt className="text-muted-foreground">Total</dt>
              <dd>
                {extracted.currency ? formatMoney(extracted.total, extracted.currency) : extracted.total.toFixed(2)}
              </dd>
            </>
          ) : null}
        </dl>
      ) : null}
      <EvidenceFlags
        flags={item.flags}
        action={
          canDismiss ? (flag) => (flag.dismissed ? null : <DismissFlag evidenceId={item.id} flag={flag} />) : undefined
        }
      />
    </div>
  );
}
