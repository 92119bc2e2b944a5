import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { SecondFactorResetDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { userKeys } from "./list-users";

/** Removes a person's authenticator app, recovery codes and passkeys, and signs them out everywhere. */
export function resetSecondFactor(userId: string) {
  return api<SecondFactorResetDto>(`/users/${userId}/mfa/reset`, { method: "POST" });
}

export function useResetSecondFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetSecondFactor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
