import { type InfiniteData, useMutation, useQueryClient } from "@tanstack/react-query";
import type { Page, Role, UserAdminDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { userKeys } from "./list-users";

export function changeUserRole({ userId, role }: { userId: string; role: Role }) {
  return api<UserAdminDto>(`/users/${userId}`, { method: "PATCH", body: { role } });
}

export function useChangeUserRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeUserRole,
    onSuccess: (updated) => {
      // The loaded pages show the new role at once; the refetch then brings filters up to date.
      queryClient.setQueriesData<InfiniteData<Page<UserAdminDto>>>({ queryKey: userKeys.lists }, (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((page) => ({
                ...page,
                items: page.items.map((u) => (u.id === updated.id ? { ...u, role: updated.role } : u)),
              })),
            }
          : data,
      );
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
      // Totals such as the verifier count on the admin overview depend on roles.
      void queryClient.invalidateQueries({ queryKey: ["dashboard"] });
    },
  });
}
