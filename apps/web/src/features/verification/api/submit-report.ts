import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { VerificationReportDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { milestonePath, verificationKeys } from "./keys";

export function useSubmitReport(milestoneId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { comments?: string }) =>
      api<VerificationReportDto>(`${milestonePath(milestoneId)}/report`, { method: "POST", body: input }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: verificationKeys.reports() }),
        queryClient.invalidateQueries({ queryKey: verificationKeys.detail(milestoneId) }),
      ]),
  });
}
