import { queryOptions, useQuery } from "@tanstack/react-query";
import type { VerificationDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { milestonePath, verificationKeys } from "./keys";

export const verificationQuery = (milestoneId: string) =>
  queryOptions({
    queryKey: verificationKeys.detail(milestoneId),
    queryFn: () => api<VerificationDto>(`${milestonePath(milestoneId)}/verification`),
  });

export function useVerification(milestoneId: string, enabled = true) {
  return useQuery({ ...verificationQuery(milestoneId), enabled });
}
