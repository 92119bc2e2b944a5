import { queryOptions, useQuery } from "@tanstack/react-query";
import type { UserAdminDto } from "@tranche/domain";
import { api } from "@/lib/api-client";

export const userKeys = { all: ["users"] as const, list: () => [...userKeys.all, "list"] as const };

export const usersQuery = queryOptions({
  queryKey: userKeys.list(),
  queryFn: async () => (await api<{ items: UserAdminDto[] }>("/users")).items,
});

export function useUsers() {
  return useQuery(usersQuery);
}
