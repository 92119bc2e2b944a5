import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import { projectKeys } from "./keys";

export interface InvestorOption {
  id: string;
  name: string;
  email: string;
  organization: string | null;
}

/** Admin only: the users holding a role, from the admin user list. */
const usersWithRole = (role: "investor" | "project_owner") =>
  queryOptions({
    queryKey: role === "investor" ? projectKeys.investors : projectKeys.owners,
    queryFn: async () => {
      const { items } = await api<{ items: (InvestorOption & { role: string | null })[] }>("/users");
      return items.filter((user) => user.role === role);
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
