import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import { verificationKeys } from "./keys";

export function useRemoveEvidence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (evidenceId: string) => api<void>(`/evidence/${encodeURIComponent(evidenceId)}`, { method: "DELETE" }),
    // The milestone's own record counts its evidence files too (the delete confirmation names them).
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: verificationKeys.all }),
        queryClient.invalidateQueries({ queryKey: ["milestones"] }),
      ]),
  });
}
