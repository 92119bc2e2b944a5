import { formatLongDate } from "@tranche/domain";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { LoadError, Progress, Skeleton } from "@/components/ui/feedback";
import { useVerification } from "../api/get-verification";
import { decisionComments } from "../comments";
import { type DisputeCandidate, DisputePanel } from "./dispute-panel";
import { decisionsAFileWouldVoid, EvidenceList, EvidenceUpload } from "./evidence-panel";
import { MilestoneHistory } from "./milestone-history";
import { OwnerActions } from "./owner-actions";
import { QuorumPanel } from "./quorum-panel";
import { VerificationDialog } from "./verification-dialog";

/** 'Start Verification' (pending) / 'Continue Verification' (in_verification) for the verifier. */
export function VerifyButton({ milestoneId }: { milestoneId: string }) {
  const { data } = useVerification(milestoneId);
  const [open, setOpen] = useState(false);
  if (!data) return null;
  const { status, permissions } = data;
  const label =
    status === "pending" && permissions.canStart
      ? "Start Verification"
      : status === "in_verification" && permissions.canDecide
        ? "Continue Verification"
        : status === "delayed" && permissions.canStart
          ? "Resume Verification"
          : null;
  // The dialog stays mounted while open, even once the decision has removed the button.
  return (
    <>
      {label ? (
        <Button variant="accent" onClick={() => setOpen(true)}>
          {label}
        </Button>
      ) : null}
      {open ? <VerificationDialog milestoneId={milestoneId} open onOpenChange={setOpen} /> : null}
    </>
  );
}

/** The milestone page's Verification tab: state, progress, decision, owner actions and history. */
export function VerificationTab({
  milestoneId,
  disputeCandidates,
}: {
  milestoneId: string;
  /** The project's verifiers, from whom an admin picks the one who reviews a disputed rejection. */
  disputeCandidates: DisputeCandidate[] | undefined;
}) {
  const { data: v, isPending, isError, error, refetch } = useVerification(milestoneId);
  if (isPending) return <Skeleton className="h-32" />;
  if (isError) return <LoadError title="Could not load the verification" error={error} onRetry={refetch} />;
  const text: Record<string, string> = {
    pending: "This milestone is waiting for a verifier to start the verification.",
    in_verification: `Verification in progress by ${v.verifierName ?? "Assigned Verifier"}.`,
    verified: `Verified${v.verificationDate ? ` on ${formatLongDate(v.verificationDate)}` : ""}: capital is released.`,
    rejected: "Rejected: capital is withheld until the owner revises and resubmits the milestone.",
    delayed: "This milestone is delayed; a verifier can resume its verification.",
  };
  return (
    <div className="grid gap-5">
      <div className="grid gap-2">
        <p className="text-sm text-slate-700">{text[v.status]}</p>
        <div className="flex items-center justify-between text-sm">
          <span className="font-medium">Verification Progress</span>
          <span className="tabular-nums">{v.progress}%</span>
        </div>
        <Progress value={v.progress} label="Verification progress" />
      </div>
      {v.status === "verified" || v.status === "rejected" ? (
        <div className="text-sm">
          <h3 className="font-semibold text-slate-900">Comments</h3>
          <p className="whitespace-pre-wrap text-slate-700">{decisionComments(v)}</p>
        </div>
      ) : null}
      <QuorumPanel verification={v} />
      <OwnerActions verification={v} />
      <DisputePanel verification={v} candidates={disputeCandidates} />
      <section className="grid gap-2">
        <h3 className="text-sm font-semibold text-slate-900">History</h3>
        <MilestoneHistory milestoneId={milestoneId} />
      </section>
    </div>
  );
}

/** The milestone page's Evidence tab: the file list, and upload for the owner or verifier. */
export function EvidenceTab({ milestoneId }: { milestoneId: string }) {
  const { data } = useVerification(milestoneId);
  return (
    <div className="grid gap-3">
      {data?.permissions.canUpload ? (
        <EvidenceUpload milestoneId={milestoneId} decided={decisionsAFileWouldVoid(data)} />
      ) : null}
      {data && !data.permissions.canUpload && data.permissions.reasons.upload ? (
        <p className="rounded-md bg-slate-100 px-3 py-2 text-sm text-slate-700">{data.permissions.reasons.upload}</p>
      ) : null}
      <EvidenceList milestoneId={milestoneId} />
    </div>
  );
}
