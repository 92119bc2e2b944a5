import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ReleaseDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { refreshCapitalData } from "@/lib/refresh-capital-data";

/** An admin's action on a failed release: re-instruct it, or cancel it with a reason. */
export function useReleaseAction(releaseId: string, action: "reinstruct" | "cancel") {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { reason?: string }) =>
      api<ReleaseDto>(`/releases/${encodeURIComponent(releaseId)}/${action}`, {
        method: "POST",
        body: action === "cancel" ? { reason: input.reason } : undefined,
      }),
    onSuccess: () => refreshCapitalData(queryClient),
  });
}
