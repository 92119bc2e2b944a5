import { formatDateTime, formatMoney, type VerificationDecisionDto, type VerificationDto } from "@tranche/domain";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { toast } from "@/components/ui/toaster";
import { SecondFactorNotice } from "@/features/account";
import { errorMessage } from "@/lib/api-client";
import { seenIn, useMilestoneAction } from "../api/milestone-action";

const KIND_LABELS = { approve: "Approved", reject: "Rejected", countersign: "Countersigned" } as const;
const VOID_LABELS = {
  resubmit: "Void: resubmitted",
  delay: "Void: delayed",
  reassign: "Void: disputed",
  policy: "Void: policy changed",
  evidence: "Void: evidence changed",
} as const;

function DecisionRow({ d, currency }: { d: VerificationDecisionDto; currency: string }) {
  const who = d.organization ? `${d.userName} (${d.organization})` : d.userName;
  return (
    <li className={d.voidedAt ? "text-slate-500" : "text-slate-800"}>
      <div className="flex flex-wrap items-center gap-x-1.5 gap-y-1">
        <span className={d.voidedAt ? "line-through" : "font-medium"}>
          {KIND_LABELS[d.kind]}
          {d.kind === "approve" && d.share < 100
            ? ` ${d.share}%${d.amount === null ? "" : ` (${formatMoney(d.amount, currency)})`}`
            : ""}
        </span>
        <span>by {who}</span>
        {d.voidedAt ? (
          <Badge className="bg-slate-200 text-slate-700">{d.voidReason ? VOID_LABELS[d.voidReason] : "Void"}</Badge>
        ) : null}
      </div>
      <p className="text-xs text-muted-foreground">{formatDateTime(d.decidedAt)}</p>
      {d.comment ? <p className="whitespace-pre-wrap text-sm">{d.comment}</p> : null}
    </li>
  );
}

/** "2 of 3 approvals" with who and when, void decisions struck through, and the investor's Countersign. */
export function QuorumPanel({ verification: v }: { verification: VerificationDto }) {
  const countersign = useMilestoneAction(v.milestoneId, "countersign");
  const [confirming, setConfirming] = useState(false);
  const { quorum } = v;
  // What the countersignature releases, as the server judges it: the approvals' lowest share, not all that is open.
  const release = formatMoney(quorum.releaseAmount, v.currency);
  const showTally = v.status === "in_verification" || quorum.required > 1 || quorum.decisions.length > 0;
  if (!showTally) return null;
  return (
    <section className="grid gap-3 rounded-md border border-slate-200 p-4" aria-label="Approvals">
      <div className="grid gap-1">
        <h3 className="text-sm font-semibold text-slate-900">
          {quorum.approvals} of {quorum.required} {quorum.required === 1 ? "approval" : "approvals"}
        </h3>
        <p className="text-xs text-muted-foreground">
          {/* Version 0 is the rule a project has until its lead investor or an admin first sets one. */}
          Release rule ({quorum.policyVersion === 0 ? "default" : `version ${quorum.policyVersion}`}):{" "}
          {quorum.statement}.
        </p>
        {quorum.awaitingCountersign ? (
          <p className="text-sm text-amber-800">
            The verifiers agree; {release} is released once an investor countersigns.
          </p>
        ) : null}
      </div>
      {quorum.decisions.length ? (
        <ol className="grid gap-2 text-sm" aria-label="Decisions">
          {quorum.decisions.map((d) => (
            <DecisionRow key={d.id} d={d} currency={v.currency} />
          ))}
        </ol>
      ) : (
        <p className="text-sm text-muted-foreground">No decisions yet.</p>
      )}
      {v.permissions.canCountersign ? (
        <div className="grid justify-items-start gap-2">
          <SecondFactorNotice action="Countersigning" />
          <Button variant="accent" disabled={countersign.isPending} onClick={() => setConfirming(true)}>
            Countersign release
          </Button>
          {confirming ? (
            <ConfirmDialog
              title={`Release ${release} for "${v.title}"?`}
              description={`Your countersignature completes the release rule: ${release} of ${v.projectName} is released as soon as you confirm. The release is recorded in the audit log and cannot be undone here.`}
              confirmLabel={`Countersign and release ${release}`}
              pendingLabel="Countersigning..."
              onClose={() => setConfirming(false)}
              onConfirm={() =>
                countersign
                  .mutateAsync({ seen: seenIn(v) })
                  .then(() => toast.success("Release countersigned", `${release} is released for "${v.title}".`))
                  .catch((e) => toast.error("Error countersigning", errorMessage(e)))
              }
            />
          ) : null}
        </div>
      ) : v.permissions.reasons.countersign ? (
        <p className="text-sm text-muted-foreground">{v.permissions.reasons.countersign}</p>
      ) : null}
    </section>
  );
}
