import {
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
} from "@simplewebauthn/browser";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { PasskeyDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { secondFactorKey } from "./second-factor";

export const passkeysKey = ["auth", "passkeys"] as const;

export function usePasskeys() {
  return useQuery({
    queryKey: passkeysKey,
    queryFn: async () => (await api<{ items: PasskeyDto[] }>("/auth/passkeys")).items,
  });
}

/** Every passkey change refreshes the list and the second factor's status. */
function usePasskeyMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: passkeysKey }),
        queryClient.invalidateQueries({ queryKey: secondFactorKey }),
      ]),
  });
}

/**
 * Creates a passkey on this device (the browser asks for the biometric or PIN) and registers it under `name`. The
 * account's `password` is typed again: the registration options are refused without it.
 */
export const useRegisterPasskey = () =>
  usePasskeyMutation(async ({ name, password }: { name: string; password: string }) => {
    const options = await api<PublicKeyCredentialCreationOptionsJSON>("/auth/passkeys/registration-options", {
      method: "POST",
      body: { password },
    });
    const response = await startRegistration({ optionsJSON: options });
    return api<PasskeyDto>("/auth/passkeys", { method: "POST", body: { name, response } });
  });

/** Revokes one of the person's passkeys; the account's `password` is typed again. */
export const useRevokePasskey = () =>
  usePasskeyMutation(({ id, password }: { id: string; password: string }) =>
    api<void>(`/auth/passkeys/${id}`, { method: "DELETE", body: { password } }),
  );

/** The browser's answer with one of the signed-in person's passkeys, to pass the second factor with. */
export async function passkeyAssertion() {
  const options = await api<PublicKeyCredentialRequestOptionsJSON>("/auth/mfa/passkey-options", { method: "POST" });
  return startAuthentication({ optionsJSON: options });
}
