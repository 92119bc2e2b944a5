import type { Role, UserAdminDto, UserSort } from "@tranche/domain";
import { pagedQuery, usePagedList } from "@/lib/paged-query";

export const userKeys = { all: ["users"] as const, lists: ["users", "list"] as const };

export interface UserListParams {
  role?: Role;
  /** Matches name or email. */
  q?: string;
  sort?: UserSort;
}

export const usersQuery = (params: UserListParams = {}) =>
  pagedQuery<UserAdminDto>(userKeys.lists, "/users", { ...params });

export function useUsers(params: UserListParams = {}) {
  return usePagedList(usersQuery(params));
}
