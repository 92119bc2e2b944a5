import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Checklist, VerificationDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { milestonePath, verificationKeys } from "./keys";

export function useUpdateChecklist(milestoneId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    // Ticks are sent one after another, so the last tick is the one the server keeps.
    scope: { id: `checklist-${milestoneId}` },
    mutationFn: (checklist: Checklist) =>
      api<VerificationDto>(`${milestonePath(milestoneId)}/checklist`, { method: "PUT", body: checklist }),
    onSuccess: (data) => queryClient.setQueryData(verificationKeys.detail(milestoneId), data),
  });
}
