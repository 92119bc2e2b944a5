import type { UserAdminDto } from "@tranche/domain";
import { BadgeCheck } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogTitle } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { ApiError, errorMessage } from "@/lib/api-client";
import { useVerifyOrganization } from "../api/verify-organization";

/**
 * What a person says their organization is, and the one an admin verified: release rules that need verifiers
 * from different organizations compare only the verified one, so a profile edit cannot get around them.
 */
export function OrganizationCell({ user }: { user: UserAdminDto }) {
  const [open, setOpen] = useState(false);
  // Only verifiers' organizations are compared by release rules; for everyone else it is what they say.
  if (user.role !== "verifier" && !user.verifiedOrganization) return <span>{user.organization ?? "—"}</span>;
  return (
    <div className="grid justify-items-start gap-1">
      <span>{user.organization ?? "—"}</span>
      {user.verifiedOrganization ? (
        <span className="inline-flex items-center gap-1 text-xs text-emerald-800">
          <BadgeCheck className="size-3.5" aria-hidden />
          Verified: {user.verifiedOrganization}
        </span>
      ) : (
        <span className="text-xs text-muted-foreground">Not verified</span>
      )}
      <Button variant="link" size="sm" className="h-auto p-0 text-xs" onClick={() => setOpen(true)}>
        {user.verifiedOrganization ? "Change verified organization" : "Verify organization"}
        <span className="sr-only"> of {user.name}</span>
      </Button>
      {open ? <VerifyOrganizationDialog user={user} onClose={() => setOpen(false)} /> : null}
    </div>
  );
}

function VerifyOrganizationDialog({ user, onClose }: { user: UserAdminDto; onClose: () => void }) {
  const verify = useVerifyOrganization();
  const id = useId();
  const [value, setValue] = useState(user.verifiedOrganization ?? user.organization ?? "");
  const [error, setError] = useState<string>();
  const save = (organization: string | null) =>
    verify.mutate(
      { userId: user.id, organization },
      {
        onSuccess: (updated) => {
          toast.success(
            "Organization updated",
            updated.verifiedOrganization
              ? `${updated.name}'s organization is verified as ${updated.verifiedOrganization}.`
              : `${updated.name} has no verified organization.`,
          );
          onClose();
        },
        onError: (e) => {
          if (e instanceof ApiError) setError(e.fieldErrors.verifiedOrganization);
          toast.error("Error updating organization", errorMessage(e));
        },
      },
    );
  return (
    <Dialog open onOpenChange={(next) => !next && !verify.isPending && onClose()}>
      <DialogContent>
        <DialogTitle>Verified organization of {user.name}</DialogTitle>
        <DialogDescription>
          Release rules that need approvals from different organizations compare this one. Check it against a source you
          trust (a contract, a registry); the change is recorded in the audit log and {user.name} is notified.
        </DialogDescription>
        <form
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            setError(undefined);
            save(value.trim());
          }}
        >
          <Field
            id={id}
            label="Organization"
            error={error}
            hint={`Their profile says: ${user.organization ?? "nothing"}.`}
          >
            <Input
              id={id}
              value={value}
              maxLength={200}
              aria-invalid={error ? true : undefined}
              onChange={(e) => setValue(e.target.value)}
            />
          </Field>
          <DialogFooter>
            {user.verifiedOrganization ? (
              <Button type="button" variant="outline" disabled={verify.isPending} onClick={() => save(null)}>
                Remove verification
              </Button>
            ) : null}
            <Button type="submit" variant="accent" disabled={verify.isPending}>
              {verify.isPending ? "Saving..." : "Save"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
