import { useQueryClient } from "@tanstack/react-query";
import {
  approveSchema,
  CHECKLIST_ITEMS,
  type Checklist,
  checklistComplete,
  formatDateTime,
  formatLongDate,
  formatMoney,
  rejectSchema,
  shareOf,
  type VerificationDto,
  verificationProgress,
} from "@tranche/domain";
import { CheckCircle2Icon, CircleIcon } from "lucide-react";
import { useId, useRef, useState } from "react";
import type { z } from "zod";
import { MilestoneStatusBadge } from "@/components/status-badge";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Progress, Spinner } from "@/components/ui/feedback";
import { Field, Input, Textarea } from "@/components/ui/input";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { toast } from "@/components/ui/toaster";
import { SecondFactorNotice } from "@/features/account";
import { useSession } from "@/features/auth";
import { ApiError, errorMessage } from "@/lib/api-client";
import { useVerification } from "../api/get-verification";
import { seenIn, useMilestoneAction } from "../api/milestone-action";
import { useSubmitReport } from "../api/submit-report";
import { useUpdateChecklist } from "../api/update-checklist";
import { decisionComments } from "../comments";
import { decisionsAFileWouldVoid, EvidenceList, EvidenceUpload } from "./evidence-panel";

/**
 * The verification dialog (Overview, Checklist, Report). Closing it refetches every open view, so the milestone page,
 * the project's capital and the queue show the new state.
 */
export function VerificationDialog({
  milestoneId,
  open,
  onOpenChange,
}: {
  milestoneId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const { data, isError, error } = useVerification(milestoneId, open);
  const setOpen = (next: boolean) => {
    onOpenChange(next);
    if (!next) void queryClient.invalidateQueries();
  };
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogContent className="max-w-2xl">
        {data ? (
          <VerificationBody key={data.milestoneId} verification={data} onDone={() => setOpen(false)} />
        ) : (
          <>
            <DialogHeader>
              <DialogTitle>Milestone Verification</DialogTitle>
              <DialogDescription>{isError ? errorMessage(error) : "Loading the milestone…"}</DialogDescription>
            </DialogHeader>
            {isError ? null : <Spinner className="py-8" />}
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

/**
 * The comments a verifier typed and has not sent yet, per person, milestone and round: closing the dialog (Escape, a
 * tap beside it, ×) keeps them for when it opens again on this page; the decision they went with drops them. Under a
 * quorum several verifiers decide in one round: another person signed in on this tab never sees them.
 */
const commentDrafts = new Map<string, string>();

function VerificationBody({ verification: v, onDone }: { verification: VerificationDto; onDone: () => void }) {
  const { data: user } = useSession();
  const draftKey = `${user?.id}:${v.milestoneId}:${v.round}`;
  const commentsId = useId();
  const [tab, setTab] = useState("overview");
  const [comments, setCommentsState] = useState(
    () => commentDrafts.get(draftKey) ?? (v.status === "in_verification" ? (v.comments ?? "") : ""),
  );
  const setComments = (text: string) => {
    setCommentsState(text);
    if (text) commentDrafts.set(draftKey, text);
    else commentDrafts.delete(draftKey);
  };
  const dropDraft = () => commentDrafts.delete(draftKey);
  const [commentsError, setCommentsError] = useState<string>();
  const shareId = useId();
  const [share, setShare] = useState("100");
  const [shareError, setShareError] = useState<string>();
  const [checklist, setChecklist] = useState<Checklist>(v.checklist);
  // One key per approval attempt: a retried click after a lost answer cannot release twice.
  const approvalKey = useRef(crypto.randomUUID());
  // A new round (after a partial release) starts from an empty form and a new key: nothing typed for the last round
  // stays (a comment left in the box would become a rejection's reason), and its approval is not a replay of the last.
  const [round, setRound] = useState(v.round);
  if (v.round !== round) {
    setRound(v.round);
    setCommentsState(commentDrafts.get(draftKey) ?? "");
    setCommentsError(undefined);
    setShare("100");
    setShareError(undefined);
    setChecklist(v.checklist);
    approvalKey.current = crypto.randomUUID();
  }

  const start = useMilestoneAction(v.milestoneId, "start");
  const approve = useMilestoneAction(v.milestoneId, "approve");
  const reject = useMilestoneAction(v.milestoneId, "reject");
  const saveChecklist = useUpdateChecklist(v.milestoneId);
  const report = useSubmitReport(v.milestoneId);
  const busy = start.isPending || approve.isPending || reject.isPending;

  const inVerification = v.status === "in_verification";
  const decided = v.status === "verified" || v.status === "rejected";
  const progress = verificationProgress(v.status, inVerification ? checklist : v.checklist);
  const complete = checklistComplete(checklist);

  const toggle = (key: keyof Checklist, checked: boolean) => {
    const previous = checklist;
    const next = { ...checklist, [key]: checked };
    setChecklist(next);
    saveChecklist.mutate(next, {
      onError: (e) => {
        setChecklist(previous);
        toast.error("Error updating status", errorMessage(e));
      },
    });
  };

  const onStart = () =>
    start.mutate(
      {},
      {
        onSuccess: () => {
          toast.success("Verification started", `"${v.title}" is now in verification.`);
          setTab("checklist");
        },
        onError: (e) => toast.error("Error updating status", errorMessage(e)),
      },
    );

  const onApprove = () => {
    setShareError(undefined);
    setCommentsError(undefined);
    const agreed = Number(share);
    const input = {
      comments: comments.trim() || undefined,
      share: agreed === 100 || share.trim() === "" ? undefined : agreed,
    };
    // The server's own rules, checked here first: a request that would be refused does not ask for a code.
    const checked = approveSchema.safeParse(input);
    if (!checked.success) {
      const fields = fieldErrors(checked.error);
      setShareError(fields.share);
      setCommentsError(fields.comments);
      toast.error("Error approving milestone", fields.comments ?? fields.share ?? checked.error.issues[0]?.message);
      return;
    }
    approve.mutate(
      { ...input, idempotencyKey: approvalKey.current, seen: seenIn(v) },
      {
        onSuccess: (after) => {
          dropDraft();
          return after.status === "verified"
            ? toast.success("Milestone verified", `"${v.title}" is approved for capital release.`)
            : after.status === "pending"
              ? toast.success("Part released", `"${v.title}": the rest stays open for a follow-up verification.`)
              : toast.success(
                  "Approval recorded",
                  after.quorum.awaitingCountersign
                    ? "The verifiers agree; an investor's countersignature releases the capital."
                    : `${after.quorum.approvals} of ${after.quorum.required} approvals.`,
                );
        },
        onError: (e) => {
          if (e instanceof ApiError) {
            setShareError(e.fieldErrors.share);
            setCommentsError(e.fieldErrors.comments);
          }
          toast.error("Error approving milestone", errorMessage(e));
        },
      },
    );
  };

  const onReject = () => {
    setCommentsError(undefined);
    const checked = rejectSchema.safeParse({ comments });
    if (!checked.success) {
      const field = fieldErrors(checked.error).comments;
      setCommentsError(field);
      toast.error("Error rejecting milestone", field ?? checked.error.issues[0]?.message);
      return;
    }
    reject.mutate(
      { comments, seen: seenIn(v) },
      {
        onSuccess: () => {
          dropDraft();
          toast.error("Milestone rejected", `"${v.title}" was rejected; capital is withheld.`);
        },
        onError: (e) => {
          const field = e instanceof ApiError ? e.fieldErrors.comments : undefined;
          setCommentsError(field);
          toast.error("Error rejecting milestone", field ?? errorMessage(e));
        },
      },
    );
  };

  const onSubmitReport = () =>
    report.mutate(
      {},
      {
        onSuccess: () => {
          if (v.report)
            toast.success("Report updated", `Verification report for "${v.title}" (${v.projectName}) updated.`);
          else toast.success("Report submitted", `Verification report for "${v.title}" (${v.projectName}) submitted.`);
          onDone();
        },
        onError: (e) => toast.error("Error submitting report", errorMessage(e)),
      },
    );

  return (
    <>
      <DialogHeader>
        <DialogTitle>Milestone Verification</DialogTitle>
        <DialogDescription>
          {v.title} · {v.projectName}
        </DialogDescription>
        <div className="flex flex-wrap items-center gap-2 pt-1">
          <MilestoneStatusBadge status={v.status} />
          {v.verifierName ? <span className="text-xs text-muted-foreground">Verifier: {v.verifierName}</span> : null}
        </div>
      </DialogHeader>

      <div className="grid gap-1.5">
        <div className="flex items-center justify-between text-sm">
          <span className="font-medium text-slate-800">Verification Progress</span>
          <span data-testid="verification-progress" className="tabular-nums text-slate-700">
            {progress}%
          </span>
        </div>
        <Progress value={progress} label="Verification progress" />
      </div>

      <Tabs value={tab} onValueChange={setTab}>
        <TabsList className="w-full justify-start">
          <TabsTrigger value="overview">Overview</TabsTrigger>
          <TabsTrigger value="checklist" disabled={v.status === "pending" || v.status === "delayed"}>
            Checklist
          </TabsTrigger>
          <TabsTrigger value="report" disabled={!decided}>
            Report
          </TabsTrigger>
        </TabsList>

        <TabsContent value="overview" className="grid gap-4">
          <p className="text-sm text-slate-700">{v.description}</p>
          <dl className="grid grid-cols-2 gap-3 text-sm">
            <div>
              <dt className="text-muted-foreground">Due date</dt>
              <dd className="font-medium">{formatLongDate(v.dueDate)}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Capital amount</dt>
              <dd className="font-medium">
                {/* After part was released, what is left open is what this verification decides. */}
                {v.quorum.openAmount < v.capitalAmount
                  ? `${formatMoney(v.quorum.openAmount, v.currency)} open of ${formatMoney(v.capitalAmount, v.currency)}`
                  : formatMoney(v.capitalAmount, v.currency)}
              </dd>
            </div>
          </dl>
          <section className="grid gap-2" aria-label="Evidence">
            <h3 className="text-sm font-semibold text-slate-900">Evidence</h3>
            {v.permissions.canUpload ? (
              <EvidenceUpload milestoneId={v.milestoneId} decided={decisionsAFileWouldVoid(v)} />
            ) : null}
            <EvidenceList milestoneId={v.milestoneId} />
          </section>
        </TabsContent>

        <TabsContent value="checklist" className="grid gap-3">
          <fieldset className="grid gap-2" disabled={!v.permissions.canDecide || busy}>
            <legend className="mb-1 text-sm font-semibold text-slate-900">Verification Checklist</legend>
            {CHECKLIST_ITEMS.map((item) => (
              <label
                key={item.key}
                className="flex cursor-pointer items-start gap-3 rounded-md border bg-white px-3 py-2 text-sm has-[:disabled]:cursor-default"
              >
                <input
                  type="checkbox"
                  className="mt-0.5 size-4 accent-emerald-700"
                  checked={(inVerification ? checklist : v.checklist)[item.key]}
                  onChange={(e) => toggle(item.key, e.target.checked)}
                />
                <span className="grid gap-0.5">
                  {item.label}
                  {/* A note the verifier wrote on site (the field view). */}
                  {v.checklistNotes[item.key] ? (
                    <span className="text-xs text-slate-600">Note: {v.checklistNotes[item.key]}</span>
                  ) : null}
                </span>
              </label>
            ))}
          </fieldset>
          {v.permissions.canDecide && !complete ? (
            <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
              Complete all checklist items before approving or rejecting this milestone.
            </p>
          ) : null}
        </TabsContent>

        <TabsContent value="report" className="grid gap-3 text-sm">
          <dl className="grid gap-2">
            <div className="flex flex-wrap gap-2">
              <dt className="text-muted-foreground">Decision:</dt>
              <dd>
                <MilestoneStatusBadge status={v.status} />
              </dd>
            </div>
            {v.verificationDate ? (
              <div className="flex flex-wrap gap-2">
                <dt className="text-muted-foreground">Verification date:</dt>
                <dd className="font-medium">{formatLongDate(v.verificationDate)}</dd>
              </div>
            ) : null}
            {v.report ? (
              <div className="flex flex-wrap gap-2">
                <dt className="text-muted-foreground">Report:</dt>
                <dd className="font-medium">
                  Submitted {formatDateTime(v.report.createdAt)}
                  {v.report.updatedAt !== v.report.createdAt ? `, updated ${formatDateTime(v.report.updatedAt)}` : ""}
                </dd>
              </div>
            ) : null}
          </dl>
          <ul className="grid gap-1" aria-label="Checklist results">
            {CHECKLIST_ITEMS.map((item) => (
              <li key={item.key} className="flex items-center gap-2">
                {v.checklist[item.key] ? (
                  <CheckCircle2Icon className="size-4 text-emerald-700" aria-label="Done" />
                ) : (
                  <CircleIcon className="size-4 text-slate-400" aria-label="Not done" />
                )}
                {item.label}
              </li>
            ))}
          </ul>
          <div>
            <h3 className="font-semibold text-slate-900">Comments</h3>
            <p className="whitespace-pre-wrap text-slate-700">{decisionComments(v)}</p>
          </div>
          <div className="grid gap-2">
            <h3 className="font-semibold text-slate-900">Evidence</h3>
            <EvidenceList milestoneId={v.milestoneId} />
          </div>
        </TabsContent>
      </Tabs>

      {v.permissions.canDecide ? (
        <Field id={commentsId} label="Comments" error={commentsError} hint="Required when rejecting.">
          <Textarea
            id={commentsId}
            value={comments}
            maxLength={5000}
            aria-invalid={commentsError ? true : undefined}
            onChange={(e) => setComments(e.target.value)}
            placeholder="Add verification comments"
          />
        </Field>
      ) : null}
      {v.permissions.canDecide ? (
        <Field
          id={shareId}
          label="Share to release (%)"
          error={shareError}
          hint={`${sharePreview(v, share)}Below 100, give the reason in the comments; the rest stays for a follow-up verification.`}
        >
          <Input
            id={shareId}
            type="number"
            min={1}
            max={100}
            step={1}
            inputMode="decimal"
            className="w-28"
            value={share}
            aria-invalid={shareError ? true : undefined}
            onChange={(e) => {
              setShare(e.target.value);
              setShareError(shareProblem(e.target.value));
            }}
          />
        </Field>
      ) : null}

      {v.permissions.reasons.decide ? (
        <p className="rounded-md bg-slate-100 px-3 py-2 text-sm text-slate-700">{v.permissions.reasons.decide}</p>
      ) : null}
      {v.permissions.canDecide ? <SecondFactorNotice action="Approving or rejecting" /> : null}

      <DialogFooter>
        {v.permissions.canStart ? (
          <Button variant="accent" onClick={onStart} disabled={busy}>
            {v.status === "delayed" ? "Resume" : "Start Verification Process"}
          </Button>
        ) : null}
        {v.permissions.canDecide ? (
          <>
            <Button variant="destructive" onClick={onReject} disabled={busy}>
              Reject
            </Button>
            <Button variant="accent" onClick={onApprove} disabled={busy}>
              Approve
            </Button>
          </>
        ) : null}
        {v.permissions.canReport && tab === "report" ? (
          <Button onClick={onSubmitReport} disabled={report.isPending}>
            {v.report ? "Update Report" : "Submit Report"}
          </Button>
        ) : null}
        {!v.permissions.canStart && !v.permissions.canDecide ? (
          <Button variant="outline" onClick={onDone}>
            Close
          </Button>
        ) : null}
      </DialogFooter>
    </>
  );
}

/** The first message for each field of a failed parse, by the field's name (as the server's details). */
function fieldErrors(error: z.ZodError): Record<string, string | undefined> {
  const fields: Record<string, string | undefined> = {};
  for (const issue of error.issues) fields[String(issue.path[0] ?? "")] ??= issue.message;
  return fields;
}

/** What is wrong with the share as typed, by the server's own rule; nothing while the field is empty. */
function shareProblem(share: string): string | undefined {
  if (share.trim() === "") return undefined;
  const checked = approveSchema.safeParse({ share: Number(share) });
  return checked.success ? undefined : fieldErrors(checked.error).share;
}

/**
 * "Releases €1,200,000 of €2,000,000 open." — the server's own rounding (the domain's shareOf), before approving, and
 * never more than an approval already made in this round agreed to (the server holds a release to that too).
 */
function sharePreview(v: VerificationDto, share: string): string {
  const { openAmount } = v.quorum;
  const open = formatMoney(openAmount, v.currency);
  const percent = Number(share);
  if (share.trim() === "" || !Number.isFinite(percent) || percent < 1 || percent > 100) return `Of ${open} open. `;
  const agreed = v.quorum.decisions.flatMap((d) =>
    d.round === v.round && d.kind === "approve" && !d.voidedAt && d.amount !== null ? [d.amount] : [],
  );
  const amount = Math.min(percent === 100 ? openAmount : shareOf(openAmount, percent), ...agreed);
  return `Releases ${formatMoney(amount, v.currency)} of ${open} open. `;
}
