import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { VerificationDto } from "@tranche/domain";
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
    mutationFn: (input: { comments?: string; share?: number; idempotencyKey?: string } = {}) =>
      api<VerificationDto>(`${milestonePath(milestoneId)}/${action}`, {
        method: "POST",
        body: {
          ...(input.comments === undefined ? {} : { comments: input.comments }),
          ...(input.share === undefined ? {} : { share: input.share }),
        },
        headers: input.idempotencyKey ? { "Idempotency-Key": input.idempotencyKey } : undefined,
      }),
    onSuccess: async (data) => {
      queryClient.setQueryData(verificationKeys.detail(milestoneId), data);
      await queryClient.invalidateQueries();
    },
  });
}
