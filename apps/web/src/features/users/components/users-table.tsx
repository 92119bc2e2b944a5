import { createColumnHelper } from "@tanstack/react-table";
import { formatDate, ROLE_LABELS, ROLES, type Role, type UserAdminDto, type UserSort } from "@tranche/domain";
import { useEffect, useMemo } from "react";
import { useLocation } from "react-router";
import { ListSearch } from "@/components/list-search";
import { PagedListState } from "@/components/paged-list-state";
import { SelectFilter } from "@/components/select-filter";
import { DataTable } from "@/components/ui/data-table";
import { useUrlState } from "@/lib/use-url-state";
import { useUsers } from "../api/list-users";
import { OrganizationCell } from "./organization-cell";
import { RolePicker } from "./role-picker";
import { SecondFactorReset } from "./second-factor-reset";

const ROLE_OPTIONS = [{ value: "all", label: "All roles" }, ...ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))];
const SORTS: { value: UserSort; label: string }[] = [
  { value: "name", label: "Name (A–Z)" },
  { value: "newest", label: "Newest first" },
  { value: "email", label: "Email (A–Z)" },
];

const column = createColumnHelper<UserAdminDto>();

/** Rows are as tall as the role picker, so every cell is centred level with it. */
function userColumns(currentUserId: string) {
  return [
    column.accessor("name", {
      header: "Name",
      meta: { sort: { name: "name", direction: "asc" }, className: "wrap-anywhere align-middle" },
      cell: (info) => <UserName user={info.row.original} isSelf={info.row.original.id === currentUserId} />,
    }),
    column.accessor("email", {
      header: "Email",
      meta: { sort: { name: "email", direction: "asc" }, className: "wrap-anywhere align-middle" },
    }),
    column.accessor("organization", {
      header: "Organization",
      meta: { className: "wrap-anywhere align-middle" },
      cell: (info) => <OrganizationCell user={info.row.original} />,
    }),
    column.accessor("createdAt", {
      header: "Joined",
      meta: { sort: { name: "newest", direction: "desc" }, className: "whitespace-nowrap align-middle" },
      cell: (info) => formatDate(info.getValue()),
    }),
    column.display({
      id: "role",
      header: "Role",
      meta: { className: "w-48 align-middle" },
      cell: (info) => <Access user={info.row.original} isSelf={info.row.original.id === currentUserId} />,
    }),
  ];
}

/**
 * Admin: users a page at a time (role filter, search and sort in the URL), each with a role picker (confirmed
 * before it applies) and, for someone with a second factor, its reset; an admin cannot change either of their own.
 */
export function UsersTable({ currentUserId }: { currentUserId: string }) {
  const [view, setView] = useUrlState({ role: "all", q: "", sort: "name" });
  const role = (ROLES as readonly string[]).includes(view.role) ? (view.role as Role) : undefined;
  const sort = view.sort as UserSort;
  const users = useUsers({ role, q: view.q || undefined, sort });
  const columns = useMemo(() => userColumns(currentUserId), [currentUserId]);
  // A search suggestion links to one person (#user-…): bring that row into view once the list is here.
  const { hash } = useLocation();
  const loaded = users.isSuccess;
  useEffect(() => {
    if (loaded && hash.startsWith("#user-"))
      document.getElementById(hash.slice(1))?.scrollIntoView({ block: "center" });
  }, [loaded, hash]);
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <ListSearch label="Search users by name or email" value={view.q} onSearch={(q) => setView({ q })} />
        <SelectFilter
          label="Role"
          value={role ?? "all"}
          options={ROLE_OPTIONS}
          onChange={(value) => setView({ role: value })}
        />
        <SelectFilter label="Sort" value={sort} options={SORTS} onChange={(value) => setView({ sort: value })} />
      </div>
      <PagedListState
        list={users}
        noun="users"
        empty="No users found"
        emptyHint={view.q || role ? "No user matches this search and role." : "Invite people from Settings."}
      >
        <DataTable
          label="Users"
          columns={columns}
          rows={users.items}
          getRowId={(user) => user.id}
          sort={sort}
          onSortChange={(value) => setView({ sort: value })}
          rowProps={(user) => {
            const highlighted = hash === `#user-${user.id}`;
            return {
              id: `user-${user.id}`,
              "aria-current": highlighted ? "true" : undefined,
              className: highlighted ? "scroll-mt-24 bg-amber-50" : "scroll-mt-24",
            };
          }}
          renderCard={(user) => <UserCard user={user} isSelf={user.id === currentUserId} />}
        />
      </PagedListState>
    </div>
  );
}

function UserName({ user, isSelf }: { user: UserAdminDto; isSelf: boolean }) {
  return (
    <span className="font-medium text-slate-900">
      {user.name}
      {isSelf ? <span className="ml-2 text-xs font-normal text-muted-foreground">(you)</span> : null}
    </span>
  );
}

function UserCard({ user, isSelf }: { user: UserAdminDto; isSelf: boolean }) {
  return (
    <div className="grid gap-3">
      <div className="grid min-w-0 gap-0.5">
        <p className="wrap-anywhere">
          <UserName user={user} isSelf={isSelf} />
        </p>
        <p className="text-muted-foreground wrap-anywhere">{user.email}</p>
        <OrganizationCell user={user} />
        <p className="text-muted-foreground">Joined {formatDate(user.createdAt)}</p>
      </div>
      <Access user={user} isSelf={isSelf} />
    </div>
  );
}

/** What the admin changes about a person's access: their role, and a second factor they lost. */
function Access({ user, isSelf }: { user: UserAdminDto; isSelf: boolean }) {
  return (
    <div className="grid gap-1">
      <RolePicker user={user} isSelf={isSelf} />
      <SecondFactorReset user={user} isSelf={isSelf} />
    </div>
  );
}
