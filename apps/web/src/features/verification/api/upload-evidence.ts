import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { EvidenceDto } from "@tranche/domain";
import { ApiError } from "@/lib/api-client";
import { milestonePath, verificationKeys } from "./keys";

/** XMLHttpRequest rather than fetch: only XHR reports upload progress. */
function uploadFiles(milestoneId: string, files: File[], onProgress: (percent: number) => void) {
  return new Promise<EvidenceDto[]>((resolve, reject) => {
    const form = new FormData();
    for (const file of files) form.append("files", file, file.name);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api${milestonePath(milestoneId)}/evidence`);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      let data: unknown = null;
      try {
        data = JSON.parse(xhr.responseText);
      } catch {}
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve((data as { items: EvidenceDto[] }).items);
        return;
      }
      const error = (data as { error?: { code?: string; message?: string; details?: unknown } } | null)?.error;
      reject(
        new ApiError(
          xhr.status,
          error?.code ?? "http_error",
          error?.message ?? `Upload failed (${xhr.status}).`,
          error?.details,
        ),
      );
    };
    xhr.onerror = () => reject(new ApiError(0, "network_error", "The upload could not reach the server."));
    xhr.send(form);
  });
}

export interface UploadOutcome {
  uploaded: EvidenceDto[];
  /** Files the server (or the browser, for empty ones) refused, each with the reason in words. */
  refused: { name: string; reason: string }[];
}

/**
 * Uploads a selection one file per request, so one refused file (over the size limit, empty) does not cancel
 * the others; progress is over the whole selection's bytes.
 */
async function uploadEach(milestoneId: string, files: File[], onProgress: (percent: number) => void) {
  const outcome: UploadOutcome = { uploaded: [], refused: [] };
  const total = files.reduce((n, f) => n + f.size, 0) || 1;
  let done = 0;
  for (const file of files) {
    if (file.size === 0) {
      outcome.refused.push({ name: file.name, reason: "it is empty" });
      continue;
    }
    try {
      const items = await uploadFiles(milestoneId, [file], (percent) =>
        onProgress(Math.round(((done + (file.size * percent) / 100) / total) * 100)),
      );
      outcome.uploaded.push(...items);
    } catch (error) {
      if (error instanceof ApiError && error.status === 0) throw error;
      outcome.refused.push({ name: file.name, reason: error instanceof Error ? error.message : String(error) });
    }
    done += file.size;
    onProgress(Math.round((done / total) * 100));
  }
  return outcome;
}

export function useUploadEvidence(milestoneId: string, onProgress: (percent: number) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (files: File[]) => uploadEach(milestoneId, files, onProgress),
    // The milestone's own record counts its evidence files too (the delete confirmation names them).
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: verificationKeys.all }),
        queryClient.invalidateQueries({ queryKey: ["milestones"] }),
      ]),
  });
}

/** The SHA-256 of a file, as the server records it; null where the browser offers no digest (insecure origin). */
export async function sha256Hex(file: File): Promise<string | null> {
  if (!globalThis.crypto?.subtle) return null;
  const digest = await crypto.subtle.digest("SHA-256", await file.arrayBuffer());
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
