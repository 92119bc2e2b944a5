import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { VerificationDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { milestonePath, verificationKeys } from "./keys";

/**
 * The owner disputes a rejection (POST /milestones/:id/dispute, a statement), or an admin assigns the verifier who
 * decides it (…/dispute/assign). Every open view refetches on success, as after any transition.
 */
export function useDisputeAction(milestoneId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { statement: string } | { verifierId: string }) =>
      api<VerificationDto>(`${milestonePath(milestoneId)}/dispute${"verifierId" in input ? "/assign" : ""}`, {
        method: "POST",
        body: input,
      }),
    onSuccess: async (data) => {
      queryClient.setQueryData(verificationKeys.detail(milestoneId), data);
      await queryClient.invalidateQueries();
    },
  });
}
