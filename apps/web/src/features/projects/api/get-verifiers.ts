import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Page, VerifierDto, VerifierSort } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { pagedQuery, usePagedList } from "@/lib/paged-query";
import { projectKeys } from "./keys";

/** The first 100 verifiers by name: the assign dialog's choices. */
export const verifiersQuery = queryOptions({
  queryKey: projectKeys.verifiers,
  queryFn: async () => (await api<Page<VerifierDto>>("/verifiers?limit=100")).items,
});

export function useVerifiers(options: { enabled?: boolean } = {}) {
  return useQuery({ ...verifiersQuery, enabled: options.enabled ?? true });
}

/** The verifiers directory, a page at a time, searched and sorted on the server. */
export function useVerifierDirectory(params: { q?: string; sort?: VerifierSort }) {
  return usePagedList(pagedQuery<VerifierDto>([...projectKeys.verifiers, "directory"], "/verifiers", { ...params }));
}
