import type { EvidenceDto, VerificationDto } from "@tranche/domain";
import { formatDateTime, formatFileSize } from "@tranche/domain";
import { DownloadIcon, FileIcon, Trash2Icon, UploadIcon } from "lucide-react";
import { useId, useRef, useState } from "react";
import { CaptureTags } from "@/components/evidence-tags";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { LoadError, Progress, Skeleton } from "@/components/ui/feedback";
import { toast } from "@/components/ui/toaster";
import { useSession } from "@/features/auth";
import { errorMessage } from "@/lib/api-client";
import { evidenceDownloadUrl, useEvidence } from "../api/get-evidence";
import { useRemoveEvidence } from "../api/remove-evidence";
import { sha256Hex, useUploadEvidence } from "../api/upload-evidence";
import { EvidenceChecks } from "./evidence-checks";

/** Names as a list in words: "a.pdf", "a.pdf and b.jpg", "a.pdf, b.jpg and c.png". */
function names(list: string[]): string {
  const quoted = list.map((n) => `"${n}"`);
  return quoted.length < 2 ? (quoted[0] ?? "") : `${quoted.slice(0, -1).join(", ")} and ${quoted.at(-1)}`;
}

/** The decisions a file added now would void: those still counting in a round in verification. */
export function decisionsAFileWouldVoid(v: VerificationDto): number {
  if (v.status !== "in_verification") return 0;
  // The record lists every round's decisions: a file voids only those of the round open now.
  return v.quorum.decisions.filter((d) => d.round === v.round && d.voidedAt === null).length;
}

/**
 * Upload several files at once, with a progress bar and a 'Files uploaded' toast. Each file goes on
 * its own, so a refused one is named without cancelling the rest; a file whose SHA-256 is already on the milestone
 * is named before anything is sent. `decided`: the decisions of an open round that a new file would void (ADR 037),
 * said before anything is sent.
 */
export function EvidenceUpload({ milestoneId, decided = 0 }: { milestoneId: string; decided?: number }) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState(0);
  const [duplicates, setDuplicates] = useState<{ files: File[]; names: string[] } | null>(null);
  const upload = useUploadEvidence(milestoneId, setProgress);
  const existing = useEvidence(milestoneId);

  const send = (files: File[]) => {
    setProgress(0);
    return upload
      .mutateAsync(files)
      .then(({ uploaded, refused }) => {
        if (uploaded.length > 0) {
          toast.success("Files uploaded", `${uploaded.length} file(s) uploaded successfully`);
        }
        if (refused.length > 0) {
          toast.error(
            refused.length === 1 ? "1 file not uploaded" : `${refused.length} files not uploaded`,
            refused.map((r) => (r.reason.includes(r.name) ? r.reason : `"${r.name}": ${r.reason}.`)).join(" "),
          );
        }
      })
      .catch((error) => toast.error("Error uploading files", errorMessage(error)))
      .finally(() => {
        if (input.current) input.current.value = "";
      });
  };

  const onFiles = async (list: FileList | null) => {
    const files = list ? [...list] : [];
    if (files.length === 0) return;
    const known = new Map((existing.data ?? []).map((e) => [e.sha256, e.originalName]));
    const repeated: string[] = [];
    for (const file of files) {
      if (file.size === 0) continue;
      const hash = await sha256Hex(file);
      const already = hash ? known.get(hash) : undefined;
      if (already !== undefined) repeated.push(already === file.name ? file.name : `${file.name} (as ${already})`);
    }
    if (repeated.length > 0) setDuplicates({ files, names: repeated });
    else void send(files);
  };

  return (
    <div className="grid gap-2">
      <label
        htmlFor={inputId}
        className="flex cursor-pointer flex-col items-center gap-1 rounded-md border border-dashed border-slate-300 bg-slate-50 px-4 py-5 text-center text-sm text-slate-700 hover:bg-slate-100 focus-within:outline-2 focus-within:outline-ring"
      >
        <UploadIcon className="size-5 text-slate-500" aria-hidden />
        <span className="font-medium">Upload Evidence</span>
        <span className="text-xs text-muted-foreground">Choose one or more files of any type</span>
        <input
          ref={input}
          id={inputId}
          type="file"
          multiple
          className="sr-only"
          disabled={upload.isPending}
          onChange={(e) => void onFiles(e.target.files)}
        />
      </label>
      {decided > 0 ? (
        <p className="rounded-md bg-amber-50 px-3 py-2 text-xs text-amber-900">
          {decided === 1 ? "1 decision was" : `${decided} decisions were`} made in this round on the evidence as it
          stands; a file added now voids {decided === 1 ? "it" : "them"}, and the verifiers decide again.
        </p>
      ) : null}
      {duplicates ? (
        <ConfirmDialog
          title="Already on this milestone"
          description={`${names(duplicates.names)} ${duplicates.names.length === 1 ? "has" : "have"} the same SHA-256 as evidence already uploaded here: the same content would be listed twice. Upload anyway?`}
          confirmLabel="Upload anyway"
          pendingLabel="Uploading..."
          onClose={() => {
            setDuplicates(null);
            if (input.current) input.current.value = "";
          }}
          onConfirm={() => send(duplicates.files)}
        />
      ) : null}
      {upload.isPending ? (
        <div className="grid gap-1">
          <Progress value={progress} label="Upload progress" />
          <p className="text-xs text-muted-foreground">Uploading… {progress}%</p>
        </div>
      ) : null}
    </div>
  );
}

function EvidenceRow({ item, canDismissFlags }: { item: EvidenceDto; canDismissFlags: boolean }) {
  const remove = useRemoveEvidence();
  const [confirming, setConfirming] = useState(false);
  return (
    <li className="grid gap-1 rounded-md border bg-white p-3 text-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="flex min-w-0 items-center gap-2 font-medium text-slate-900">
          <FileIcon className="size-4 shrink-0 text-slate-500" aria-hidden />
          <span className="truncate" title={item.originalName}>
            {item.originalName}
          </span>
        </span>
        <span className="flex items-center gap-1">
          <Button asChild variant="ghost" size="sm">
            <a href={evidenceDownloadUrl(item.id)} download aria-label={`Download ${item.originalName}`}>
              <DownloadIcon aria-hidden />
              <span className="hidden sm:inline">Download</span>
            </a>
          </Button>
          {item.canRemove ? (
            <Button
              variant="ghost"
              size="sm"
              className="text-destructive"
              aria-label={`Remove ${item.originalName}`}
              onClick={() => setConfirming(true)}
            >
              <Trash2Icon aria-hidden />
            </Button>
          ) : null}
        </span>
      </div>
      <p className="text-xs text-muted-foreground">
        {formatFileSize(item.size)} · {item.uploadedBy.name} · {formatDateTime(item.createdAt)}
      </p>
      <p className="break-all font-mono text-[11px] leading-snug text-slate-600">
        <span className="font-sans text-muted-foreground">SHA-256 </span>
        {item.sha256}
      </p>
      {item.capture ? <CaptureTags capture={item.capture} /> : null}
      <EvidenceChecks item={item} canDismiss={canDismissFlags} />
      {confirming ? (
        <ConfirmDialog
          title="Remove this evidence file?"
          description={`"${item.originalName}" (${formatFileSize(item.size)}) will be removed from this milestone's evidence. Verifiers will no longer see it. This cannot be undone.`}
          confirmLabel="Remove file"
          pendingLabel="Removing..."
          onClose={() => setConfirming(false)}
          onConfirm={() =>
            remove
              .mutateAsync(item.id)
              .then(() => toast.success("File removed", `"${item.originalName}" was removed from the evidence.`))
              .catch((error) => toast.error("Error removing file", errorMessage(error)))
          }
        />
      ) : null}
    </li>
  );
}

/**
 * Each file with its name, size in MB, uploader, time and SHA-256, what the checks read and flagged; remove for its
 * uploader. Dismiss is offered to verifiers and admins (the server allows it to the project's verifiers).
 */
export function EvidenceList({ milestoneId }: { milestoneId: string }) {
  const { data, isPending, isError, error, refetch } = useEvidence(milestoneId);
  const { data: user } = useSession();
  const canDismissFlags = user?.role === "verifier" || user?.role === "admin";
  if (isPending) return <Skeleton className="h-16" />;
  if (isError) return <LoadError title="Could not load the evidence files" error={error} onRetry={refetch} />;
  if (data.length === 0) return <p className="text-sm text-muted-foreground">No Evidence Uploaded</p>;
  return (
    <ul className="grid gap-2" aria-label="Evidence files">
      {data.map((item) => (
        <EvidenceRow key={item.id} item={item} canDismissFlags={canDismissFlags} />
      ))}
    </ul>
  );
}
