import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ApiTokenDto, CreateApiTokenInput, CreatedApiTokenDto } from "@tranche/domain";
import { api } from "@/lib/api-client";

export const apiTokenKeys = { all: ["api-tokens"] as const };

export const apiTokensQuery = queryOptions({
  queryKey: apiTokenKeys.all,
  queryFn: () => api<{ items: ApiTokenDto[] }>("/api-tokens"),
});

/** Every API token with its scopes and last use (admins). */
export function useApiTokens() {
  return useQuery(apiTokensQuery);
}

export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateApiTokenInput) => api<CreatedApiTokenDto>("/api-tokens", { method: "POST", body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokenKeys.all }),
  });
}

export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/api-tokens/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokenKeys.all }),
  });
}
