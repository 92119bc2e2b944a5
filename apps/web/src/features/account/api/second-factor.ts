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

/**
 * Every change to the second factor sends the account's password, typed again: the server refuses it otherwise, even
 * in a session that passed the second factor minutes ago.
 */
type WithPassword<T> = T & { password: string };

/** Starts setting up the app (the password is typed again). */
export const useStartTotpSetup = () =>
  useSecondFactorMutation((password: string) =>
    api<TotpSetupDto>("/auth/mfa/totp/setup", { method: "POST", body: { password } }),
  );

/** Turns the app on with its first code; the password typed to start the set-up goes along again. */
export const useEnableTotp = () =>
  useSecondFactorMutation((input: WithPassword<{ code: string }>) =>
    api<RecoveryCodesDto>("/auth/mfa/totp/enable", { method: "POST", body: input }),
  );

/** Passing the second factor in this session (the dialog that protected actions open). */
export const useVerifySecondFactor = () =>
  useSecondFactorMutation((input: SecondFactorInput) =>
    api<SecondFactorStatusDto>("/auth/mfa/verify", { method: "POST", body: input }),
  );

export const useReplaceRecoveryCodes = () =>
  useSecondFactorMutation((input: WithPassword<SecondFactorInput>) =>
    api<RecoveryCodesDto>("/auth/mfa/recovery-codes", { method: "POST", body: input }),
  );

export const useDisableTotp = () =>
  useSecondFactorMutation((input: WithPassword<SecondFactorInput>) =>
    api<void>("/auth/mfa/totp/disable", { method: "POST", body: input }),
  );
