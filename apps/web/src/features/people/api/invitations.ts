import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  AcceptInvitationInput,
  CreateInvitationInput,
  InvitationDto,
  InvitationPreviewDto,
  UserDto,
} from "@tranche/domain";
import { api } from "@/lib/api-client";

export const invitationKeys = { all: ["invitations"] as const };

export const invitationsQuery = queryOptions({
  queryKey: invitationKeys.all,
  queryFn: () => api<InvitationDto[]>("/invitations"),
});

/** Pending invitations (admins). */
export function useInvitations() {
  return useQuery(invitationsQuery);
}

function useInvitationMutation<T, R>(mutationFn: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invitationKeys.all }),
  });
}

export const useCreateInvitation = () =>
  useInvitationMutation((input: CreateInvitationInput) =>
    api<InvitationDto>("/invitations", { method: "POST", body: input }),
  );
export const useResendInvitation = () =>
  useInvitationMutation((id: string) => api<InvitationDto>(`/invitations/${id}/resend`, { method: "POST" }));
export const useRevokeInvitation = () =>
  useInvitationMutation((id: string) => api<void>(`/invitations/${id}`, { method: "DELETE" }));

/** What an invitation link offers, before the person accepts (no sign-in). */
export function useInvitationPreview(token: string) {
  return useQuery({
    queryKey: ["invitation-preview", token],
    queryFn: () =>
      api<InvitationPreviewDto>("/invitations/lookup", { method: "POST", body: { token }, redirectOn401: false }),
    enabled: token.length > 0,
    retry: false,
    // Read once: after acceptance the link is used up, and asking again would only answer 410.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
}

/** Accepting signs the person in: everything cached belonged to whoever was signed in before. */
export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AcceptInvitationInput) =>
      api<{ user: UserDto }>("/invitations/accept", { method: "POST", body: input, redirectOn401: false }),
    onSuccess: ({ user }) => {
      // Everything but the preview the page still shows: cleared, its mounted query would be fetched again.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== "invitation-preview" });
      queryClient.setQueryData(["session"], user);
    },
  });
}
