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

export function useUploadEvidence(milestoneId: string, onProgress: (percent: number) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (files: File[]) => uploadFiles(milestoneId, files, onProgress),
    onSettled: () => queryClient.invalidateQueries({ queryKey: verificationKeys.all }),
  });
}
