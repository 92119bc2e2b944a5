import { queryOptions, useQuery } from "@tanstack/react-query";
import type { VerifierQueueDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { verificationKeys } from "./keys";

export const verifierQueueQuery = queryOptions({
  queryKey: verificationKeys.queue(),
  queryFn: () => api<VerifierQueueDto>("/verifications"),
});

export function useVerifierQueue() {
  return useQuery(verifierQueueQuery);
}
