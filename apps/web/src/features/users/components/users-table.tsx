import { ROLE_LABELS, ROLES, type Role, type UserAdminDto } from "@tranche/domain";
import { useEffect } from "react";
import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/feedback";
import { NativeSelect } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { errorMessage } from "@/lib/api-client";
import { useChangeUserRole } from "../api/change-role";
import { useUsers } from "../api/list-users";

/** Admin: every user with a role picker; an admin cannot change their own role. */
export function UsersTable({ currentUserId }: { currentUserId: string }) {
  const users = useUsers();
  useEffect(() => {
    if (users.error) toast.error("Error loading users", errorMessage(users.error, "Failed to load users"));
  }, [users.error]);
  if (users.isPending) {
    return (
      <div className="grid gap-2" role="status" aria-busy="true" aria-label="Loading users">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-14" />
        ))}
      </div>
    );
  }
  const rows = users.data ?? [];
  return (
    <Card className="overflow-hidden">
      <ul className="divide-y" aria-label="Users">
        {rows.map((user) => (
          <UserRow key={user.id} user={user} isSelf={user.id === currentUserId} />
        ))}
      </ul>
    </Card>
  );
}

function UserRow({ user, isSelf }: { user: UserAdminDto; isSelf: boolean }) {
  const change = useChangeUserRole();
  const id = `role-${user.id}`;
  const onChange = (role: Role) =>
    change.mutate(
      { userId: user.id, role },
      {
        onSuccess: (updated) => toast.success("Role updated", `${updated.name} is now ${ROLE_LABELS[role]}.`),
        onError: (error) => toast.error("Error updating role", errorMessage(error)),
      },
    );
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="truncate font-medium text-slate-900">
          {user.name}
          {isSelf ? <span className="ml-2 text-xs font-normal text-muted-foreground">(you)</span> : null}
        </p>
        <p className="truncate text-sm text-muted-foreground">
          {user.email}
          {user.organization ? ` · ${user.organization}` : ""}
        </p>
      </div>
      <div className="flex items-center gap-2">
        <label htmlFor={id} className="sr-only">
          Role for {user.name}
        </label>
        <NativeSelect
          id={id}
          className="w-44"
          value={user.role ?? ""}
          disabled={isSelf || change.isPending}
          onChange={(e) => onChange(e.target.value as Role)}
        >
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {ROLE_LABELS[role]}
            </option>
          ))}
        </NativeSelect>
      </div>
    </li>
  );
}
