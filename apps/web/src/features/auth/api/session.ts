import { type PublicKeyCredentialRequestOptionsJSON, startAuthentication } from "@simplewebauthn/browser";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  AuthOptionsDto,
  DemoAccountsDto,
  SessionAnswer,
  SignedInDto,
  SignInInput,
  SignUpInput,
  UserDto,
} from "@tranche/domain";
import { api } from "@/lib/api-client";
import { takeKnown } from "@/lib/early-fetch";

export const sessionKeys = { current: ["session"] as const, demo: ["session", "demo-accounts"] as const };

export const sessionQuery = queryOptions({
  queryKey: sessionKeys.current,
  queryFn: async () => (await api<SessionAnswer>("/auth/session", { redirectOn401: false })).user,
  // On a first load the server wrote the session into the page (app/preload-route.ts): no wait, no request.
  initialData: () => takeKnown<SessionAnswer>("/auth/session")?.user,
  staleTime: 60_000,
});

/** The signed-in user, null when signed out, undefined while it resolves. */
export function useSession() {
  return useQuery(sessionQuery);
}

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SignInInput) =>
      api<SignedInDto>("/auth/sign-in", { method: "POST", body: input, redirectOn401: false }),
    onSuccess: ({ user }) => {
      // Everything cached belonged to whoever was signed in before.
      queryClient.clear();
      queryClient.setQueryData(sessionKeys.current, user);
    },
  });
}

/** Signing in with a passkey: the browser offers the passkeys it holds for this site, so no email is asked. */
export function useSignInWithPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const options = await api<PublicKeyCredentialRequestOptionsJSON>("/auth/passkeys/sign-in-options", {
        method: "POST",
        redirectOn401: false,
      });
      const response = await startAuthentication({ optionsJSON: options });
      return api<{ user: UserDto }>("/auth/passkeys/sign-in", {
        method: "POST",
        body: { response },
        redirectOn401: false,
      });
    },
    onSuccess: ({ user }) => {
      queryClient.clear();
      queryClient.setQueryData(sessionKeys.current, user);
    },
  });
}

export function useSignUp() {
  return useMutation({
    mutationFn: (input: SignUpInput) =>
      api<{ id: string }>("/auth/sign-up", { method: "POST", body: input, redirectOn401: false }),
  });
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<void>("/auth/sign-out", { method: "POST", redirectOn401: false }),
    onSettled: () => {
      queryClient.clear();
      queryClient.setQueryData(sessionKeys.current, null);
    },
  });
}

export function useDemoAccounts() {
  return useQuery({
    queryKey: sessionKeys.demo,
    queryFn: () =>
      api<DemoAccountsDto>("/auth/demo-accounts", {
        redirectOn401: false,
      }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Whether self sign-up is open (ALLOW_SIGNUP); invitations work either way. */
export function useAuthOptions() {
  return useQuery({
    queryKey: ["session", "options"],
    queryFn: () => api<AuthOptionsDto>("/auth/options", { redirectOn401: false }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
