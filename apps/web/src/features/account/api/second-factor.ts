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

/** Starts setting up the app; the first second factor of a session that has passed none needs the password again. */
export const useStartTotpSetup = () =>
  useSecondFactorMutation((password: string | undefined) =>
    api<TotpSetupDto>("/auth/mfa/totp/setup", {
      method: "POST",
      body: password === undefined ? undefined : { password },
    }),
  );

/**
 * Whether setting up a second factor asks for the password again: none is set up yet and this session has passed
 * none (once one is set up, passing it is what is asked instead).
 */
export const asksForPassword = (status: SecondFactorStatusDto | undefined) =>
  status !== undefined && !status.enrolled && status.validUntil === null;

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
