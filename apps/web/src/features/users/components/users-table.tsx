import { ROLE_LABELS, ROLES, type Role, type UserAdminDto, type UserSort } from "@tranche/domain";
import { useEffect, useState } from "react";
import { useLocation } from "react-router";
import { ListSearch } from "@/components/list-search";
import { PagedListState } from "@/components/paged-list-state";
import { SelectFilter } from "@/components/select-filter";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { NativeSelect } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { errorMessage } from "@/lib/api-client";
import { useUrlState } from "@/lib/use-url-state";
import { useChangeUserRole } from "../api/change-role";
import { useUsers } from "../api/list-users";

const ROLE_OPTIONS = [{ value: "all", label: "All roles" }, ...ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))];
const SORTS = [
  { value: "name", label: "Name (A–Z)" },
  { value: "newest", label: "Newest first" },
];

/** What a role change does to the person, said before it is applied. */
const ROLE_EFFECT: Record<Role, string> = {
  investor: "They will oversee the projects they are added to as an investor.",
  project_owner: "They will be able to create projects and manage their milestones.",
  verifier: "They will be able to verify milestones of the projects they are assigned to.",
  admin: "They will manage every user, project and integration on the platform.",
};

/**
 * Admin: users a page at a time (role filter, search and sort in the URL), each with a role picker (confirmed
 * before it applies); an admin cannot change their own role.
 */
export function UsersTable({ currentUserId }: { currentUserId: string }) {
  const [view, setView] = useUrlState({ role: "all", q: "", sort: "name" });
  const role = (ROLES as readonly string[]).includes(view.role) ? (view.role as Role) : undefined;
  const users = useUsers({ role, q: view.q || undefined, sort: view.sort as UserSort });
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
        <SelectFilter label="Sort" value={view.sort} options={SORTS} onChange={(value) => setView({ sort: value })} />
      </div>
      <PagedListState
        list={users}
        noun="users"
        empty="No users found"
        emptyHint={view.q || role ? "No user matches this search and role." : "Invite people from Settings."}
      >
        <Card className="overflow-hidden">
          <ul className="divide-y" aria-label="Users">
            {users.items.map((user) => (
              <UserRow
                key={user.id}
                user={user}
                isSelf={user.id === currentUserId}
                highlighted={hash === `#user-${user.id}`}
              />
            ))}
          </ul>
        </Card>
      </PagedListState>
    </div>
  );
}

function UserRow({ user, isSelf, highlighted }: { user: UserAdminDto; isSelf: boolean; highlighted: boolean }) {
  const change = useChangeUserRole();
  const [proposed, setProposed] = useState<Role | null>(null);
  const id = `role-${user.id}`;
  const hintId = `${id}-hint`;
  const current = user.role ? ROLE_LABELS[user.role] : "no role";
  return (
    <li
      id={`user-${user.id}`}
      aria-current={highlighted ? "true" : undefined}
      className={`flex scroll-mt-24 flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between ${highlighted ? "bg-amber-50" : ""}`}
    >
      <div className="min-w-0">
        <p className="truncate font-medium text-slate-900" title={user.name}>
          {user.name}
          {isSelf ? <span className="ml-2 text-xs font-normal text-muted-foreground">(you)</span> : null}
        </p>
        <p className="truncate text-sm text-muted-foreground" title={user.email}>
          {user.email}
          {user.organization ? ` · ${user.organization}` : ""}
        </p>
      </div>
      <div className="grid gap-1 sm:justify-items-end">
        <label htmlFor={id} className="sr-only">
          Role for {user.name}
        </label>
        <NativeSelect
          id={id}
          className="w-44"
          value={proposed ?? user.role ?? ""}
          disabled={isSelf || change.isPending}
          aria-describedby={isSelf ? hintId : undefined}
          onChange={(e) => {
            const role = e.target.value as Role;
            if (role !== user.role) setProposed(role);
          }}
        >
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {ROLE_LABELS[role]}
            </option>
          ))}
        </NativeSelect>
        {isSelf ? (
          <p id={hintId} className="text-xs text-muted-foreground">
            You cannot change your own role.
          </p>
        ) : null}
      </div>
      {proposed ? (
        <ConfirmDialog
          title={`Change ${user.name}'s role to ${ROLE_LABELS[proposed]}?`}
          description={`${user.name} is now ${current}. ${ROLE_EFFECT[proposed]} The change takes effect at once, is recorded in the audit log, and ${user.name} is notified.`}
          confirmLabel="Change role"
          pendingLabel="Changing..."
          onClose={() => setProposed(null)}
          onConfirm={() =>
            change
              .mutateAsync({ userId: user.id, role: proposed })
              .then((updated) => toast.success("Role updated", `${updated.name} is now ${ROLE_LABELS[proposed]}.`))
              .catch((error) => toast.error("Error updating role", errorMessage(error)))
          }
        />
      ) : null}
    </li>
  );
}
