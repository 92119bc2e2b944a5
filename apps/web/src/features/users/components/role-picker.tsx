import { ROLE_LABELS, ROLES, type Role, type UserAdminDto } from "@tranche/domain";
import { useState } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { NativeSelect } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { errorMessage } from "@/lib/api-client";
import { cn } from "@/lib/utils";
import { useChangeUserRole } from "../api/change-role";

/** What a role change does to the person, said before it is applied. */
const ROLE_EFFECT: Record<Role, string> = {
  investor: "They will oversee the projects they are added to as an investor.",
  project_owner: "They will be able to create projects and manage their milestones.",
  verifier: "They will be able to verify milestones of the projects they are assigned to.",
  admin: "They will manage every user, project and integration on the platform.",
};

/** A person's role, changed only after a confirmation that says what the new role does; never one's own. */
export function RolePicker({ user, isSelf, className }: { user: UserAdminDto; isSelf: boolean; className?: string }) {
  const change = useChangeUserRole();
  const [proposed, setProposed] = useState<Role | null>(null);
  const id = `role-${user.id}`;
  const hintId = `${id}-hint`;
  const current = user.role ? ROLE_LABELS[user.role] : "no role";
  return (
    <div className={cn("grid gap-1", className)}>
      <label htmlFor={id} className="sr-only">
        Role for {user.name}
      </label>
      <NativeSelect
        id={id}
        className="w-full md:w-44"
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
      {proposed ? (
        <ConfirmDialog
          title={`Change ${user.name}'s role to ${ROLE_LABELS[proposed]}?`}
          description={`${user.name} is currently ${current}. ${ROLE_EFFECT[proposed]} The change takes effect at once, is recorded in the audit log, and ${user.name} is notified.`}
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
    </div>
  );
}
