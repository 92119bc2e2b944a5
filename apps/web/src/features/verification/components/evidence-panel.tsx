import type { EvidenceDto } from "@tranche/domain";
import { formatDateTime, formatFileSize } from "@tranche/domain";
import { DownloadIcon, FileIcon, Trash2Icon, UploadIcon } from "lucide-react";
import { useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { LoadError, Progress, Skeleton } from "@/components/ui/feedback";
import { toast } from "@/components/ui/toaster";
import { errorMessage } from "@/lib/api-client";
import { evidenceDownloadUrl, useEvidence } from "../api/get-evidence";
import { useRemoveEvidence } from "../api/remove-evidence";
import { useUploadEvidence } from "../api/upload-evidence";

/** Upload several files at once, with a progress bar; the 'Files uploaded' toast of SPEC.md §8. */
export function EvidenceUpload({ milestoneId }: { milestoneId: string }) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState(0);
  const upload = useUploadEvidence(milestoneId, setProgress);

  const onFiles = (list: FileList | null) => {
    const files = list ? [...list] : [];
    if (files.length === 0) return;
    setProgress(0);
    upload.mutate(files, {
      onSuccess: (items) => toast.success("Files uploaded", `${items.length} file(s) uploaded successfully`),
      onError: (error) => toast.error("Error uploading files", errorMessage(error)),
      onSettled: () => {
        if (input.current) input.current.value = "";
      },
    });
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
          onChange={(e) => onFiles(e.target.files)}
        />
      </label>
      {upload.isPending ? (
        <div className="grid gap-1">
          <Progress value={progress} label="Upload progress" />
          <p className="text-xs text-muted-foreground">Uploading… {progress}%</p>
        </div>
      ) : null}
    </div>
  );
}

function EvidenceRow({ item }: { item: EvidenceDto }) {
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
      {confirming ? (
        <ConfirmDialog
          title="Remove this evidence file?"
          description={`“${item.originalName}” (${formatFileSize(item.size)}) will be removed from this milestone's evidence. Verifiers will no longer see it. This cannot be undone.`}
          confirmLabel="Remove file"
          pendingLabel="Removing..."
          onClose={() => setConfirming(false)}
          onConfirm={() =>
            remove
              .mutateAsync(item.id)
              .then(() => toast.success("File removed", `“${item.originalName}” was removed from the evidence.`))
              .catch((error) => toast.error("Error removing file", errorMessage(error)))
          }
        />
      ) : null}
    </li>
  );
}

/** Each file with its name, size in MB, uploader, time and SHA-256; remove for its uploader. */
export function EvidenceList({ milestoneId }: { milestoneId: string }) {
  const { data, isPending, isError, error, refetch } = useEvidence(milestoneId);
  if (isPending) return <Skeleton className="h-16" />;
  if (isError) return <LoadError title="Could not load the evidence files" error={error} onRetry={refetch} />;
  if (data.length === 0) return <p className="text-sm text-muted-foreground">No Evidence Uploaded</p>;
  return (
    <ul className="grid gap-2" aria-label="Evidence files">
      {data.map((item) => (
        <EvidenceRow key={item.id} item={item} />
      ))}
    </ul>
  );
}
