import { type EvidenceDto, evidenceContentType, formatDateTime, formatFileSize, opensInBrowser } from "@tranche/domain";
import { ExternalLinkIcon, FileIcon } from "lucide-react";
import { CaptureTags, EvidenceFlags } from "@/components/evidence-tags";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { toast } from "@/components/ui/toaster";
import { errorMessage } from "@/lib/api-client";
import { useKeepDocument, useKeptDocuments } from "../api/keep-document";
import { keptDocument } from "../store/field-store";

/**
 * Opens a kept file from the device (no connection needed). A blob: URL belongs to this page's origin, so only a type
 * a browser shows without running anything (a PDF, a photo, plain text, a video) is opened in a tab; anything else
 * (an HTML or SVG file the uploader declared as such) is saved under its name, never rendered as a page of Tranche.
 */
async function openKept(userId: string, item: EvidenceDto) {
  const bytes = await keptDocument(userId, item.id);
  if (!bytes) return;
  const type = evidenceContentType(item.contentType);
  const url = URL.createObjectURL(new Blob([bytes], { type }));
  if (opensInBrowser(type)) {
    window.open(url, "_blank", "noopener");
  } else {
    const link = document.createElement("a");
    link.href = url;
    link.download = item.originalName;
    link.click();
  }
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * The evidence already submitted: its metadata is always on the device with the visit; the files the verifier
 * chooses are kept too (encrypted), to look at on site with no signal.
 */
export function EvidenceCard({
  userId,
  milestoneId,
  evidence,
  online,
}: {
  userId: string;
  milestoneId: string;
  evidence: EvidenceDto[];
  online: boolean;
}) {
  const kept = useKeptDocuments(userId, milestoneId);
  const keep = useKeepDocument(userId, milestoneId);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Submitted evidence</CardTitle>
        <p className="text-sm text-muted-foreground">Keep the files you need on this device for the visit.</p>
      </CardHeader>
      <CardContent>
        {evidence.length === 0 ? (
          <p className="text-sm text-muted-foreground">No Evidence Uploaded</p>
        ) : (
          <ul className="grid gap-2" aria-label="Submitted evidence">
            {evidence.map((item) => {
              const isKept = kept.data?.has(item.id) ?? false;
              return (
                <li key={item.id} className="grid gap-1.5 rounded-md border bg-white p-3 text-sm">
                  <span className="flex min-w-0 items-center gap-2 font-medium text-slate-900">
                    <FileIcon className="size-4 shrink-0 text-slate-500" aria-hidden />
                    <span className="truncate">{item.originalName}</span>
                  </span>
                  <p className="text-xs text-muted-foreground">
                    {formatFileSize(item.size)} · {item.uploadedBy.name} · {formatDateTime(item.createdAt)}
                  </p>
                  {item.capture ? <CaptureTags capture={item.capture} /> : null}
                  <EvidenceFlags flags={item.flags} />
                  <div className="flex flex-wrap items-center gap-3">
                    <label className="flex items-center gap-2 text-xs font-medium text-slate-800">
                      <input
                        type="checkbox"
                        className="size-4 accent-emerald-700"
                        checked={isKept}
                        disabled={keep.isPending || (!isKept && !online)}
                        onChange={(e) =>
                          keep
                            .mutateAsync({ evidenceId: item.id, keep: e.target.checked })
                            .catch((error) => toast.error("File not kept", errorMessage(error)))
                        }
                      />
                      Keep on this device
                    </label>
                    {isKept ? (
                      <button
                        type="button"
                        className="inline-flex items-center gap-1 text-xs font-medium text-blue-700 hover:underline"
                        onClick={() => void openKept(userId, item)}
                      >
                        <ExternalLinkIcon className="size-3.5" aria-hidden /> Open
                      </button>
                    ) : null}
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
