import { queryOptions, useQuery } from "@tanstack/react-query";
import type { VerifierDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { projectKeys } from "./keys";

export const verifiersQuery = queryOptions({
  queryKey: projectKeys.verifiers,
  queryFn: () => api<VerifierDto[]>("/verifiers"),
});

/** The verifiers directory (any signed-in user). */
export function useVerifiers(options: { enabled?: boolean } = {}) {
  return useQuery({ ...verifiersQuery, enabled: options.enabled ?? true });
}
