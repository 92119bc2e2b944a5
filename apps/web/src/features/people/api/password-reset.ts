import { useMutation, useQueryClient } from "@tanstack/react-query";
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
