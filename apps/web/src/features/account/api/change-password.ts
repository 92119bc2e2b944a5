import { useMutation } from "@tanstack/react-query";
import { api } from "@/lib/api-client";

export interface ChangePasswordInput {
  currentPassword: string;
  newPassword: string;
}

/** The signed-in user's password; the server ends their other sessions. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (input: ChangePasswordInput) =>
      api<void>("/auth/change-password", { method: "POST", body: input, redirectOn401: true }),
  });
}
