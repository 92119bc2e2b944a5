import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { EmailPreferences, ProfileDto, UpdateProfileInput } from "@tranche/domain";
import { api } from "@/lib/api-client";

export const accountKeys = {
  profile: ["account", "profile"] as const,
  emailPreferences: ["account", "email-preferences"] as const,
};

export const profileQuery = queryOptions({
  queryKey: accountKeys.profile,
  queryFn: () => api<ProfileDto>("/me/profile"),
});

export function useProfile() {
  return useQuery(profileQuery);
}

/** Saving changes the name shown everywhere, so the session's copy is refreshed too. */
function useProfileMutation<T>(mutationFn: (input: T) => Promise<ProfileDto>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (profile) => {
      queryClient.setQueryData(accountKeys.profile, profile);
      void queryClient.invalidateQueries({ queryKey: ["session"] });
    },
  });
}

export const useUpdateProfile = () =>
  useProfileMutation((input: UpdateProfileInput) => api<ProfileDto>("/me/profile", { method: "PATCH", body: input }));

/** The picture is sent as the request body itself (PNG, JPEG or WebP). */
export const useSetAvatar = () =>
  useProfileMutation(async (file: File) => {
    const res = await fetch("/api/me/avatar", {
      method: "PUT",
      credentials: "same-origin",
      headers: { "Content-Type": file.type || "application/octet-stream", Accept: "application/json" },
      body: file,
    });
    const data = await res.json();
    if (!res.ok) throw new Error(data?.error?.message ?? `Upload failed (${res.status}).`);
    return data as ProfileDto;
  });

export const useRemoveAvatar = () => useProfileMutation(() => api<ProfileDto>("/me/avatar", { method: "DELETE" }));

export function useEmailPreferences() {
  return useQuery({
    queryKey: accountKeys.emailPreferences,
    queryFn: () => api<EmailPreferences>("/me/email-preferences"),
  });
}

export function useSetEmailPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: EmailPreferences) =>
      api<EmailPreferences>("/me/email-preferences", { method: "PUT", body: input }),
    onSuccess: (saved) => queryClient.setQueryData(accountKeys.emailPreferences, saved),
  });
}
