import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import { verificationKeys } from "./keys";

export function useRemoveEvidence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (evidenceId: string) => api<void>(`/evidence/${encodeURIComponent(evidenceId)}`, { method: "DELETE" }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: verificationKeys.all }),
  });
}
