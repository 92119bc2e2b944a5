import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError } from "@/lib/api-client";
import { forgetDocument, keepDocument, keptDocumentIds } from "../store/field-store";
import { fieldKeys } from "./keys";

/** The evidence files of this assignment kept on the device. */
export function useKeptDocuments(userId: string, milestoneId: string) {
  return useQuery({
    queryKey: fieldKeys.documents(userId, milestoneId),
    networkMode: "always",
    queryFn: () => keptDocumentIds(userId, milestoneId),
  });
}

/** Downloads an evidence file and keeps it on the device, encrypted; or forgets it. */
export function useKeepDocument(userId: string, milestoneId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    networkMode: "always",
    mutationFn: async ({ evidenceId, keep }: { evidenceId: string; keep: boolean }) => {
      if (!keep) return forgetDocument(userId, evidenceId);
      const res = await fetch(`/api/evidence/${evidenceId}`, { credentials: "same-origin" });
      if (!res.ok) throw new ApiError(res.status, "download_failed", "The file could not be downloaded.");
      await keepDocument(userId, milestoneId, evidenceId, await res.arrayBuffer());
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: fieldKeys.documents(userId, milestoneId) }),
  });
}
