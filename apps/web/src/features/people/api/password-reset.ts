import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ResetPasswordInput } from "@tranche/domain";
import { api } from "@/lib/api-client";

export function useForgotPassword() {
  return useMutation({
    mutationFn: (email: string) =>
      api<{ message: string }>("/auth/forgot-password", { method: "POST", body: { email }, redirectOn401: false }),
  });
}

/** A reset ends every session of the account, this browser's too if it was signed in as them. */
export function useResetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ResetPasswordInput) =>
      api<void>("/auth/reset-password", { method: "POST", body: input, redirectOn401: false }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["session"] }),
  });
}

/** Whether a reset link still works, asked when its page opens (a used or expired link says so at once). */
export function useResetLink(token: string) {
  return useQuery({
    queryKey: ["reset-link", token],
    queryFn: () =>
      api<{ expiresAt: string }>("/auth/reset-password/lookup", {
        method: "POST",
        body: { token },
        redirectOn401: false,
      }),
    enabled: token.length > 0,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
}
