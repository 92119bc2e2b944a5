import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { SeenState, VerificationDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { milestonePath, verificationKeys } from "./keys";

export type MilestoneAction = "start" | "approve" | "reject" | "resubmit" | "delay" | "countersign";

/**
 * One status transition (POST /milestones/:id/<action>). On success every open view refetches: the milestone,
 * its project's capital and the queues all change together.
 */
export function useMilestoneAction(milestoneId: string, action: MilestoneAction) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { comments?: string; share?: number; idempotencyKey?: string; seen?: SeenState } = {}) =>
      api<VerificationDto>(`${milestonePath(milestoneId)}/${action}`, {
        method: "POST",
        body: {
          ...(input.comments === undefined ? {} : { comments: input.comments }),
          ...(input.share === undefined ? {} : { share: input.share }),
          ...input.seen,
        },
        headers: input.idempotencyKey ? { "Idempotency-Key": input.idempotencyKey } : undefined,
      }),
    onSuccess: async (data) => {
      queryClient.setQueryData(verificationKeys.detail(milestoneId), data);
      await queryClient.invalidateQueries();
    },
  });
}

/**
 * What a decision was made on, as the page shows it: the round, the release policy, the evidence and the amount
 * open. When any has moved on since, the server refuses the decision as stale instead of applying it to what the
 * decider did not see.
 */
export const seenIn = (v: VerificationDto): SeenState => ({
  round: v.round,
  policyVersion: v.quorum.policyVersion,
  evidenceVersion: v.evidenceVersion,
  openAmount: v.quorum.openAmount,
});
