import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { SessionDto } from "@tranche/domain";
import { api } from "@/lib/api-client";

export const sessionsKey = ["auth", "sessions"] as const;

export function useSessions() {
  return useQuery({
    queryKey: sessionsKey,
    queryFn: async () => (await api<{ items: SessionDto[] }>("/auth/sessions")).items,
  });
}

function useSessionsMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsKey }) });
}

export const useSignOutSession = () =>
  useSessionsMutation((id: string) => api<void>(`/auth/sessions/${id}`, { method: "DELETE" }));

export const useSignOutOtherSessions = () =>
  useSessionsMutation(() => api<{ signedOut: number }>("/auth/sessions/sign-out-others", { method: "POST" }));
