import {
  type CreateInvitationInput,
  createInvitationSchema,
  fieldErrors,
  INVITATION_TTL_HOURS,
  ROLE_LABELS,
  ROLES,
  type Role,
} from "@tranche/domain";
import { useState } from "react";
import { ListSearch } from "@/components/list-search";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { Field, Input, NativeSelect } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { useProjectOptions } from "@/features/projects";
import { ApiError, errorMessage } from "@/lib/api-client";
import { useFieldErrors } from "@/lib/use-field-errors";
import { useCreateInvitation } from "../api/invitations";
import { PendingInvitations } from "./pending-invitations";

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
  const { formRef, errors, setErrors, show } = useFieldErrors();
  const create = useCreateInvitation();
  const projectsAllowed = values.role !== "admin";

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const input = { ...values, projectIds: projectsAllowed ? values.projectIds : [] };
    const parsed = createInvitationSchema.safeParse(input);
    if (!parsed.success) {
      show(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    create.mutate(parsed.data as CreateInvitationInput, {
      onSuccess: (invitation) => {
        setValues(EMPTY);
        toast.success("Invitation sent", `${invitation.email} can join as ${ROLE_LABELS[invitation.role]}.`);
      },
      onError: (error) => {
        if (error instanceof ApiError) show(error.fieldErrors);
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
        <form
          ref={formRef}
          className="grid gap-4 sm:grid-cols-2"
          onSubmit={submit}
          noValidate
          aria-label="Invite someone"
        >
          <Field id="invite-email" label="Email" error={errors.email}>
            <Input
              id="invite-email"
              type="email"
              autoComplete="off"
              value={values.email}
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
              <ProjectChoices
                value={values.projectIds}
                onChange={(projectIds) => setValues((v) => ({ ...v, projectIds }))}
              />
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

/**
 * The projects an invitation adds the person to, ticked from the first projects by name, or from a search when there
 * are more; a ticked project stays listed (first) when a search leaves it out.
 */
function ProjectChoices({ value, onChange }: { value: string[]; onChange: (projectIds: string[]) => void }) {
  const [search, setSearch] = useState("");
  const [names, setNames] = useState<Record<string, string>>({});
  const projects = useProjectOptions(search);
  const shown = new Set(projects.options.map((p) => p.id));
  const rows = [
    ...value.filter((id) => !shown.has(id)).map((id) => ({ id, name: names[id] ?? id })),
    ...projects.options,
  ];
  function toggle(project: { id: string; name: string }, checked: boolean) {
    setNames((known) => ({ ...known, [project.id]: project.name }));
    onChange(checked ? [...value, project.id] : value.filter((id) => id !== project.id));
  }
  if (rows.length === 0 && !search) return <p className="text-sm text-muted-foreground">No projects yet.</p>;
  return (
    <>
      {projects.more || search ? <ListSearch label="Find a project" value={search} onSearch={setSearch} /> : null}
      <div className="grid max-h-40 gap-1 overflow-y-auto rounded-md border p-2 sm:grid-cols-2">
        {rows.length === 0 ? (
          <p className="text-sm text-muted-foreground">No project name contains “{search}”.</p>
        ) : (
          rows.map((project) => (
            <label key={project.id} className="flex min-w-0 items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={value.includes(project.id)}
                onChange={(e) => toggle(project, e.target.checked)}
              />
              <span className="truncate" title={project.name}>
                {project.name}
              </span>
            </label>
          ))
        )}
      </div>
    </>
  );
}
