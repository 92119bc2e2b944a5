import {
  type Checklist,
  type ChecklistNotes,
  formatDate,
  formatDateTime,
  formatMoney,
  type MilestoneStatus,
  type UserDto,
} from "@tranche/domain";
import { ArrowLeftIcon, HardDriveDownloadIcon, TriangleAlertIcon } from "lucide-react";
import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { MilestoneStatusBadge } from "@/components/status-badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { LoadError, Skeleton } from "@/components/ui/feedback";
import { ApiError } from "@/lib/api-client";
import { useDocumentTitle } from "@/lib/document-title";
import { NOT_ON_DEVICE, useVisit } from "../api/get-visit";
import { useOnline } from "../hooks/use-online";
import { capturePosition, usePosition } from "../hooks/use-position";
import { useQueue, useQueueSender } from "../hooks/use-queue";
import { sha256Hex } from "../store/crypto";
import { discard, enqueue, isConflict, type QueueItem } from "../store/queue";
import { CapturesCard } from "./captures-card";
import { ChecklistCard } from "./checklist-card";
import { type Decision, DecisionCard } from "./decision-card";
import { EvidenceCard } from "./evidence-card";
import { actionLabel, QueueList } from "./queue-list";
import { SiteLine } from "./site-line";
import { UrgencyBadge } from "./urgency-badge";

const unsent = (item: QueueItem) => item.status !== "sent";

/**
 * /field/milestones/:id, the site visit: opening it keeps what the visit needs on the device; then, with or without a
 * connection, the verifier starts, works the checklist with a note per item, captures, and decides. Every action
 * waits in the ordered queue and is sent when it can be; a conflict comes back here to be looked at again.
 */
export function AssignmentVisit({ user, milestoneId }: { user: UserDto; milestoneId: string }) {
  const online = useOnline();
  const visit = useVisit(user.id, milestoneId);
  const position = usePosition();
  const queue = useQueue(user.id);
  useQueueSender(user.id, queue);
  const mine = (queue ?? []).filter((item) => item.milestoneId === milestoneId);
  useDocumentTitle(visit.data ? `${visit.data.visit.assignment.title} · Field` : "Field");

  // What the server now holds after an item of this visit was sent: fetched again, and kept again.
  const sent = mine.filter((item) => item.status === "sent").length;
  const seenSent = useRef(sent);
  const { refetch } = visit;
  useEffect(() => {
    if (sent > seenSent.current) void refetch();
    seenSent.current = sent;
  }, [sent, refetch]);
  // A conflict means the milestone changed meanwhile: the page shows it as it is now without waiting for a click.
  const conflicts = mine.filter((item) => item.status === "needs_attention" && isConflict(item.problem));
  const conflicted = conflicts.length;
  const seenConflicted = useRef(conflicted);
  useEffect(() => {
    if (conflicted > seenConflicted.current) void refetch();
    seenConflicted.current = conflicted;
  }, [conflicted, refetch]);

  if (visit.isPending) {
    return (
      <div className="grid gap-3" aria-busy="true">
        <Skeleton className="h-8 w-40" />
        <Skeleton className="h-44" />
        <Skeleton className="h-64" />
      </div>
    );
  }
  if (visit.isError) {
    return (
      <div className="grid gap-4">
        <BackLink />
        <LoadError
          title={
            visit.error instanceof ApiError && visit.error.code === NOT_ON_DEVICE
              ? "Not on this device"
              : "Could not load this assignment"
          }
          error={visit.error}
          onRetry={visit.refetch}
        />
      </div>
    );
  }

  const { visit: v, source, savedAt } = visit.data;
  const { assignment: a, verification } = v;
  const seen = { title: a.title, round: verification.round };
  const policyVersion = verification.quorum.policyVersion;
  const waiting = mine.filter(unsent);
  // Decided (here or elsewhere): what still waits in the queue can only be refused, so the page offers no more work.
  const decided = verification.status === "verified" || verification.status === "rejected";
  const starting = !decided && waiting.some((item) => item.kind === "start");
  const decision = waiting.find((item) => item.kind === "approve" || item.kind === "reject");
  const status: MilestoneStatus = starting ? "in_verification" : verification.status;
  const eligible = verification.permissions.canDecide || verification.permissions.canStart;
  const working = status === "in_verification" && (verification.permissions.canDecide || starting);
  const latestChecklist = [...waiting].reverse().find((item) => item.action.kind === "checklist")?.action;
  const checklist = latestChecklist?.kind === "checklist" ? latestChecklist : null;

  const capture = async (file: File) => {
    const [bytes, fix] = await Promise.all([file.arrayBuffer(), capturePosition(position)]);
    const sha256 = await sha256Hex(bytes);
    const tags = fix
      ? {
          sha256,
          latitude: fix.latitude,
          longitude: fix.longitude,
          accuracy: fix.accuracy,
          capturedAt: new Date().toISOString(),
        }
      : null;
    const name = file.name || `capture-${Date.now()}`;
    await enqueue(
      user.id,
      milestoneId,
      {
        kind: "evidence",
        ...seen,
        name,
        type: file.type || "application/octet-stream",
        size: file.size,
        capture: tags,
      },
      bytes,
    );
  };
  const saveChecklist = (next: Checklist, notes: ChecklistNotes) =>
    enqueue(user.id, milestoneId, { kind: "checklist", ...seen, checklist: next, notes });
  // A decision stands for the evidence it was made on (ADR 037): what the server held when this page read it, and
  // this device's own files still queued ahead of it (each upload moves the count on by one). A file anyone else
  // adds meanwhile makes the decision come back as a conflict instead of being applied.
  const ownFiles = waiting.filter((item) => item.kind === "evidence").length;
  // A visit kept on the device from before evidence versions has none: its decision is sent without one.
  const evidenceVersion =
    typeof verification.evidenceVersion === "number" ? verification.evidenceVersion + ownFiles : undefined;
  const decide = (d: Decision) =>
    enqueue(
      user.id,
      milestoneId,
      d.kind === "approve"
        ? {
            kind: "approve",
            ...seen,
            policyVersion,
            evidenceVersion,
            openAmount: verification.quorum.openAmount,
            comments: d.comments,
            share: d.share,
          }
        : { kind: "reject", ...seen, policyVersion, evidenceVersion, comments: d.comments },
    );
  /** Looks again: the conflicted decisions are dropped and the milestone is fetched as it is now. */
  const decideAgain = async () => {
    for (const item of conflicts) if (item.kind !== "checklist" && item.kind !== "evidence") await discard(item.seq);
    await refetch();
  };

  return (
    <div className="grid gap-4">
      <BackLink />
      <div className="grid gap-2">
        <div className="flex flex-wrap items-center gap-2">
          {decided ? null : <UrgencyBadge urgency={a.urgency} />}
          <MilestoneStatusBadge status={verification.status} />
          <span className="text-xs text-slate-600">Round {verification.round}</span>
        </div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{a.title}</h1>
        <p className="text-sm text-slate-600">
          {a.projectName} · due {formatDate(a.dueDate)} · {formatMoney(a.openAmount, a.currency)} open
        </p>
        <SiteLine site={a.site} position={position} location={a.location} />
        <p className="flex items-center gap-1.5 text-xs text-slate-600" data-testid="kept-note">
          <HardDriveDownloadIcon className="size-3.5" aria-hidden />
          {source === "device"
            ? `No connection: as kept on this device on ${formatDateTime(savedAt)}.`
            : "Kept on this device for the visit (encrypted)."}
        </p>
      </div>

      {conflicts.length ? (
        <div className="grid gap-2 rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-red-900" role="alert">
          <p className="flex items-center gap-2 font-semibold">
            <TriangleAlertIcon className="size-4" aria-hidden /> Conflict: this milestone changed while you were away
          </p>
          <p>{conflicts[0]?.problem?.message}</p>
          <p>
            Not applied: {conflicts.map((item) => actionLabel(item.action).toLowerCase()).join(", ")}. Look at the
            milestone as it is now and decide again.
          </p>
          {online ? (
            <Button size="sm" variant="outline" className="justify-self-start" onClick={() => void decideAgain()}>
              Review and decide again
            </Button>
          ) : null}
        </div>
      ) : null}

      {(verification.status === "pending" || verification.status === "delayed") && !starting ? (
        <Card>
          <CardHeader>
            <CardTitle>Start the verification</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-3 text-sm text-slate-700">
            {verification.permissions.canStart ? (
              <>
                <p>Start it to work the checklist and decide; on site with no signal, it is sent once you are back.</p>
                <Button
                  className="justify-self-start"
                  onClick={() => void enqueue(user.id, milestoneId, { kind: "start", ...seen })}
                >
                  {verification.status === "delayed" ? "Resume verification" : "Start verification"}
                </Button>
              </>
            ) : (
              <p>{verification.permissions.reasons.decide ?? "You cannot start this verification."}</p>
            )}
          </CardContent>
        </Card>
      ) : null}

      {working ? (
        <ChecklistCard
          key={verification.round}
          checklist={checklist?.checklist ?? verification.checklist}
          notes={checklist?.notes ?? verification.checklistNotes}
          disabled={!!decision}
          onSave={saveChecklist}
        />
      ) : null}

      {verification.permissions.canUpload && eligible ? (
        <CapturesCard
          captures={mine.filter((item) => item.kind === "evidence")}
          site={a.site}
          radiusM={v.siteRadiusM}
          disabled={!!decision}
          onCapture={capture}
        />
      ) : null}

      <EvidenceCard userId={user.id} milestoneId={milestoneId} evidence={v.evidence} online={online} />

      {working && !decision ? <DecisionCard title={a.title} round={verification.round} onDecide={decide} /> : null}
      {decision && !decided ? (
        <p className="rounded-md border bg-white p-3 text-sm text-slate-800" data-testid="decision-note">
          Your decision ({actionLabel(decision.action).toLowerCase()}) is in the queue for round {decision.action.round}
          .
        </p>
      ) : null}
      {decided ? (
        <p className="rounded-md border bg-white p-3 text-sm text-slate-800" data-testid="decided-note">
          {verification.status === "verified" ? "Verified" : "Rejected"}
          {verification.verifierName ? ` by ${verification.verifierName}` : ""}
          {verification.verificationDate ? ` on ${formatDateTime(verification.verificationDate)}` : ""}.
        </p>
      ) : null}

      <section className="grid gap-2" aria-labelledby="visit-queue">
        <h2 id="visit-queue" className="text-lg font-semibold text-slate-900">
          This visit's queue
        </h2>
        {/* A decided milestone takes nothing more in its round: a conflicted item can only be discarded. */}
        <QueueList
          items={mine}
          current={source === "server" && !decided ? { round: verification.round, policyVersion } : null}
        />
      </section>
    </div>
  );
}

function BackLink() {
  return (
    <Button asChild variant="ghost" size="sm" className="-ml-3 justify-self-start">
      <Link to="/field">
        <ArrowLeftIcon aria-hidden /> All assignments
      </Link>
    </Button>
  );
}
