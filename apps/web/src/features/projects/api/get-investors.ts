import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import { projectKeys } from "./keys";

export interface InvestorOption {
  id: string;
  name: string;
  email: string;
  organization: string | null;
}

/** Admin only: the users holding the investor role (the first 100 by name), from the admin user list. */
export const investorsQuery = queryOptions({
  queryKey: projectKeys.investors,
  queryFn: async () => {
    const { items } = await api<{ items: InvestorOption[] }>("/users?role=investor&limit=100");
    return items;
  },
});

export function useInvestors(options: { enabled?: boolean } = {}) {
  return useQuery({ ...investorsQuery, enabled: options.enabled ?? true });
}
