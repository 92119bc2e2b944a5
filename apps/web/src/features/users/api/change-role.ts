import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Role, UserAdminDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { userKeys } from "./list-users";

export function changeUserRole({ userId, role }: { userId: string; role: Role }) {
  return api<UserAdminDto>(`/users/${userId}`, { method: "PATCH", body: { role } });
}

export function useChangeUserRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeUserRole,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
      // Totals such as the verifier count on the admin overview depend on roles.
      void queryClient.invalidateQueries({ queryKey: ["dashboard"] });
    },
  });
}
