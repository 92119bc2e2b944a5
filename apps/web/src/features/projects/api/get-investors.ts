import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Page, UserAdminDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { projectKeys } from "./keys";

/** What a person picker shows of a user. */
export type InvestorOption = Pick<UserAdminDto, "id" | "name" | "email" | "organization">;

/** Admin only: the users holding a role (the first 100 by name), from the admin user list. */
const usersWithRole = (role: "investor" | "project_owner") =>
  queryOptions({
    queryKey: role === "investor" ? projectKeys.investors : projectKeys.owners,
    queryFn: async () => {
      const { items } = await api<Page<UserAdminDto>>(`/users?role=${role}&limit=100`);
      return items;
    },
  });

export const investorsQuery = usersWithRole("investor");

export function useInvestors(options: { enabled?: boolean } = {}) {
  return useQuery({ ...investorsQuery, enabled: options.enabled ?? true });
}

/** Admin only: the users who may be given a project (Transfer ownership). */
export function useProjectOwners(options: { enabled?: boolean } = {}) {
  return useQuery({ ...usersWithRole("project_owner"), enabled: options.enabled ?? true });
}
