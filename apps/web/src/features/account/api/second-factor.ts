import type { AuthenticationResponseJSON } from "@simplewebauthn/browser";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { RecoveryCodesDto, SecondFactorStatusDto, TotpSetupDto } from "@tranche/domain";
import { api } from "@/lib/api-client";

export const secondFactorKey = ["auth", "mfa"] as const;

/** A code from the authenticator app, one recovery code, or a passkey's answer. */
export type SecondFactorInput = { code: string } | { recoveryCode: string } | { passkey: AuthenticationResponseJSON };

export function useSecondFactorStatus(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: secondFactorKey,
    queryFn: () => api<SecondFactorStatusDto>("/auth/mfa"),
    enabled: options.enabled ?? true,
  });
}

/** Every second-factor change refreshes the status card. */
function useSecondFactorMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: secondFactorKey }),
  });
}

export const useStartTotpSetup = () =>
  useSecondFactorMutation(() => api<TotpSetupDto>("/auth/mfa/totp/setup", { method: "POST" }));

export const useEnableTotp = () =>
  useSecondFactorMutation((code: string) =>
    api<RecoveryCodesDto>("/auth/mfa/totp/enable", { method: "POST", body: { code } }),
  );

/** Passing the second factor in this session (the dialog that protected actions open). */
export const useVerifySecondFactor = () =>
  useSecondFactorMutation((input: SecondFactorInput) =>
    api<SecondFactorStatusDto>("/auth/mfa/verify", { method: "POST", body: input }),
  );

export const useReplaceRecoveryCodes = () =>
  useSecondFactorMutation((input: SecondFactorInput) =>
    api<RecoveryCodesDto>("/auth/mfa/recovery-codes", { method: "POST", body: input }),
  );

export const useDisableTotp = () =>
  useSecondFactorMutation((input: SecondFactorInput) =>
    api<void>("/auth/mfa/totp/disable", { method: "POST", body: input }),
  );
