import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { UserAdminDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { userKeys } from "./list-users";

/** Sets (or, with null, clears) the organization release rules compare for a person. */
export function verifyOrganization({ userId, organization }: { userId: string; organization: string | null }) {
  return api<UserAdminDto>(`/users/${userId}`, { method: "PATCH", body: { verifiedOrganization: organization } });
}

export function useVerifyOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyOrganization,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
