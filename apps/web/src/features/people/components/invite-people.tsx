import {
  type CreateInvitationInput,
  createInvitationSchema,
  fieldErrors,
  formatDateTime,
  INVITATION_TTL_HOURS,
  type InvitationDto,
  ROLE_LABELS,
  ROLES,
  type Role,
} from "@tranche/domain";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState, LoadError, Skeleton } from "@/components/ui/feedback";
import { Field, Input, NativeSelect } from "@/components/ui/input";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { toast } from "@/components/ui/toaster";
import { ApiError, errorMessage } from "@/lib/api-client";
import {
  useCreateInvitation,
  useInvitableProjects,
  useInvitations,
  useResendInvitation,
  useRevokeInvitation,
} from "../api/invitations";

const EMPTY = { email: "", role: "investor" as Role, organization: "", projectIds: [] as string[] };

/** Admins invite people by email with a role; pending invitations can be sent again or withdrawn. */
export function InvitePeople() {
  return (
    <div className="grid min-w-0 gap-6">
      <InviteForm />
      <PendingInvitations />
    </div>
  );
}

function InviteForm() {
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useCreateInvitation();
  const projects = useInvitableProjects();
  const projectsAllowed = values.role !== "admin";

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const input = { ...values, projectIds: projectsAllowed ? values.projectIds : [] };
    const parsed = createInvitationSchema.safeParse(input);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    create.mutate(parsed.data as CreateInvitationInput, {
      onSuccess: (invitation) => {
        setValues(EMPTY);
        toast.success("Invitation sent", `${invitation.email} can join as ${ROLE_LABELS[invitation.role]}.`);
      },
      onError: (error) => {
        if (error instanceof ApiError) setErrors(error.fieldErrors);
        toast.error("Could not send the invitation", errorMessage(error));
      },
    });
  }

  return (
    <Card>
      <CardHeader>
        <h2 className="text-base font-semibold leading-tight tracking-tight">Invite someone</h2>
        <CardDescription>
          They receive an email with a link to set their name and password. The link works once, for{" "}
          {INVITATION_TTL_HOURS} hours.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-4 sm:grid-cols-2" onSubmit={submit} noValidate aria-label="Invite someone">
          <Field id="invite-email" label="Email" error={errors.email}>
            <Input
              id="invite-email"
              type="email"
              autoComplete="off"
              value={values.email}
              aria-invalid={errors.email ? true : undefined}
              onChange={(e) => setValues((v) => ({ ...v, email: e.target.value }))}
            />
          </Field>
          <Field id="invite-role" label="Role" error={errors.role}>
            <NativeSelect
              id="invite-role"
              value={values.role}
              onChange={(e) => setValues((v) => ({ ...v, role: e.target.value as Role }))}
            >
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {ROLE_LABELS[role]}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field id="invite-organization" label="Organization (optional)" error={errors.organization}>
            <Input
              id="invite-organization"
              autoComplete="off"
              value={values.organization}
              onChange={(e) => setValues((v) => ({ ...v, organization: e.target.value }))}
            />
          </Field>
          {projectsAllowed ? (
            <fieldset className="grid gap-1.5 sm:col-span-2">
              <legend className="text-sm font-medium text-slate-800">Projects (optional)</legend>
              {projects.data && projects.data.length > 0 ? (
                <div className="grid max-h-40 gap-1 overflow-y-auto rounded-md border p-2 sm:grid-cols-2">
                  {projects.data.map((project) => (
                    <label key={project.id} className="flex min-w-0 items-center gap-2 text-sm">
                      <input
                        type="checkbox"
                        checked={values.projectIds.includes(project.id)}
                        onChange={(e) =>
                          setValues((v) => ({
                            ...v,
                            projectIds: e.target.checked
                              ? [...v.projectIds, project.id]
                              : v.projectIds.filter((id) => id !== project.id),
                          }))
                        }
                      />
                      <span className="truncate" title={project.name}>
                        {project.name}
                      </span>
                    </label>
                  ))}
                </div>
              ) : (
                <p className="text-sm text-muted-foreground">No projects yet.</p>
              )}
              {errors.projectIds ? <p className="text-sm text-destructive">{errors.projectIds}</p> : null}
            </fieldset>
          ) : null}
          <div className="sm:col-span-2">
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? "Sending..." : "Send invitation"}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function PendingInvitations() {
  const { data, isPending, isError, error, refetch } = useInvitations();
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  const [revoking, setRevoking] = useState<InvitationDto | null>(null);

  return (
    <Card>
      <CardHeader>
        <h2 className="text-base font-semibold leading-tight tracking-tight">Pending invitations</h2>
        <CardDescription>
          Sent and not yet accepted. Resending makes a new link; the old one stops working.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <div className="grid gap-2" aria-busy="true">
            <span className="sr-only">Loading invitations</span>
            <Skeleton className="h-9" />
            <Skeleton className="h-9" />
          </div>
        ) : isError ? (
          <LoadError title="Could not load invitations" error={error} onRetry={refetch} />
        ) : data.length === 0 ? (
          <EmptyState title="No pending invitations">
            Invitations you send appear here until they are accepted.
          </EmptyState>
        ) : (
          <ScrollRegion label="Pending invitations" className="rounded-md border">
            <table className="w-full min-w-[40rem] text-left text-sm">
              <caption className="sr-only">Pending invitations, newest first</caption>
              <thead className="bg-muted text-slate-700">
                <tr>
                  {["Person", "Projects", "Sent", "Link", "Actions"].map((h) => (
                    <th key={h} scope="col" className="px-3 py-2 font-medium">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y">
                {data.map((invite) => (
                  <tr key={invite.id} className="align-top">
                    <td className="min-w-56 px-3 py-2">
                      <div className="break-all font-medium text-slate-900">{invite.email}</div>
                      <div className="text-xs text-slate-700">
                        {ROLE_LABELS[invite.role]}
                        {invite.organization ? ` · ${invite.organization}` : ""}
                      </div>
                    </td>
                    <td className="px-3 py-2">{invite.projects.map((p) => p.name).join(", ") || "—"}</td>
                    <td className="whitespace-nowrap px-3 py-2 text-slate-700">
                      <time dateTime={invite.sentAt}>{formatDateTime(invite.sentAt)}</time>
                      {invite.invitedBy ? <div className="text-xs">by {invite.invitedBy}</div> : null}
                    </td>
                    <td className="whitespace-nowrap px-3 py-2">
                      {invite.status === "expired" ? (
                        <span className="font-medium text-amber-800">Expired</span>
                      ) : (
                        <span className="text-slate-700">
                          Until <time dateTime={invite.expiresAt}>{formatDateTime(invite.expiresAt)}</time>
                        </span>
                      )}
                    </td>
                    <td className="whitespace-nowrap px-3 py-2">
                      <div className="flex gap-2">
                        <Button
                          size="sm"
                          variant="outline"
                          disabled={resend.isPending}
                          aria-label={`Resend invitation to ${invite.email}`}
                          onClick={() =>
                            resend.mutate(invite.id, {
                              onSuccess: () =>
                                toast.success("Invitation sent again", `A new link went to ${invite.email}.`),
                              onError: (e) => toast.error("Could not resend", errorMessage(e)),
                            })
                          }
                        >
                          Resend
                        </Button>
                        <Button
                          size="sm"
                          variant="outline"
                          aria-label={`Revoke invitation to ${invite.email}`}
                          onClick={() => setRevoking(invite)}
                        >
                          Revoke
                        </Button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
      </CardContent>
      {revoking ? (
        <ConfirmDialog
          title="Revoke this invitation?"
          description={`The link sent to ${revoking.email} stops working at once. You can invite them again later.`}
          confirmLabel="Revoke invitation"
          pendingLabel="Revoking..."
          onClose={() => setRevoking(null)}
          onConfirm={() =>
            revoke.mutateAsync(revoking.id).then(
              () => toast.success("Invitation revoked", `${revoking.email} can no longer use the link.`),
              (e) => toast.error("Could not revoke", errorMessage(e)),
            )
          }
        />
      ) : null}
    </Card>
  );
}
