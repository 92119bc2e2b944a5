import type { ProjectDetailDto, TeamMemberDto } from "@tranche/domain";
import { XIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { toast } from "@/components/ui/toaster";
import { errorMessage } from "@/lib/api-client";
import { useRemoveMember } from "../api/remove-member";
import { useSetLeadInvestor } from "../api/set-lead-investor";
import { AssignMemberDialog } from "./assign-member-dialog";
import { TransferOwnershipDialog } from "./transfer-ownership-dialog";

function initials(name: string) {
  return (
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((w) => w[0]?.toUpperCase())
      .join("") || "?"
  );
}

function Person({
  member,
  detail,
  onRemove,
  extra,
}: {
  member: TeamMemberDto;
  detail: string;
  onRemove?: () => void;
  extra?: React.ReactNode;
}) {
  const name = member.name?.trim() || "Unknown";
  // The admin's buttons go under the name when the card is too narrow for both, rather than cutting the name short.
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
      <span
        aria-hidden
        className="flex size-9 shrink-0 items-center justify-center rounded-full bg-slate-200 text-sm font-semibold text-slate-700"
      >
        {initials(name)}
      </span>
      <div className="min-w-0 flex-1 basis-40">
        <p className="truncate font-medium text-slate-900" title={name}>
          {name}
        </p>
        {member.isLead ? <p className="text-xs font-semibold text-blue-700">Lead investor</p> : null}
        <p className="truncate text-sm text-muted-foreground" title={detail}>
          {detail}
        </p>
      </div>
      {extra || onRemove ? (
        <div className="ms-auto flex items-center gap-1">
          {extra}
          {onRemove ? (
            <Button variant="ghost" size="icon" onClick={onRemove} aria-label={`Remove ${name}`}>
              <XIcon aria-hidden />
            </Button>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

/** The Team tab: owner, investors, verifiers; admins assign (and remove) verifiers and investors. */
export function ProjectTeam({ project }: { project: ProjectDetailDto }) {
  const remove = useRemoveMember();
  const lead = useSetLeadInvestor(project.id);
  const [naming, setNaming] = useState<TeamMemberDto | null>(null);
  const currentLead = project.investors.find((m) => m.isLead);
  const confirmLead = (member: TeamMemberDto) =>
    lead
      .mutateAsync(member.id)
      .then(() => toast.success("Lead investor named", `${member.name} may now set the release policy.`))
      .catch((e) => toast.error("Error naming the lead investor", errorMessage(e)));
  const canAssign = project.permissions.canAssign;
  const [removing, setRemoving] = useState<{ member: TeamMemberDto; role: "verifier" | "investor" } | null>(null);
  const removeMember = (member: TeamMemberDto, role: "verifier" | "investor") => setRemoving({ member, role });

  const confirmRemoval = async ({ member, role }: { member: TeamMemberDto; role: "verifier" | "investor" }) => {
    try {
      await remove.mutateAsync({ projectId: project.id, userId: member.id, role });
      toast.success("Member removed", `${member.name} is no longer on ${project.name}.`);
    } catch (error) {
      toast.error("Error removing member", errorMessage(error));
    }
  };

  return (
    <div className="grid gap-4 md:grid-cols-3">
      <Card>
        <CardHeader className="flex-row flex-wrap items-center justify-between gap-2">
          <CardTitle>Project Owner</CardTitle>
          {canAssign ? <TransferOwnershipDialog project={project} /> : null}
        </CardHeader>
        <CardContent>
          {project.owner ? (
            <ul>
              <Person member={project.owner} detail={project.owner.email} />
            </ul>
          ) : (
            <p className="text-sm text-muted-foreground">No project owner assigned</p>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Investors</CardTitle>
        </CardHeader>
        <CardContent>
          {project.investors.length ? (
            <ul className="divide-y">
              {project.investors.map((m) => (
                <Person
                  key={m.id}
                  member={m}
                  detail={m.organization ?? m.email}
                  onRemove={canAssign ? () => removeMember(m, "investor") : undefined}
                  extra={
                    canAssign && !m.isLead ? (
                      <Button variant="ghost" size="sm" disabled={lead.isPending} onClick={() => setNaming(m)}>
                        Make lead
                      </Button>
                    ) : null
                  }
                />
              ))}
            </ul>
          ) : (
            <p className="text-sm text-muted-foreground">No investors assigned</p>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader className="flex-row items-center justify-between gap-2">
          <CardTitle>Verifiers</CardTitle>
          {canAssign ? <AssignMemberDialog project={project} /> : null}
        </CardHeader>
        <CardContent>
          {project.verifiers.length ? (
            <ul className="divide-y">
              {project.verifiers.map((m) => (
                <Person
                  key={m.id}
                  member={m}
                  detail={m.organization ?? "Independent Verifier"}
                  onRemove={canAssign ? () => removeMember(m, "verifier") : undefined}
                />
              ))}
            </ul>
          ) : (
            <p className="text-sm text-muted-foreground">No verifiers assigned</p>
          )}
        </CardContent>
      </Card>
      {naming ? (
        <ConfirmDialog
          title={`Make ${naming.name} the lead investor of ${project.name}?`}
          description={`The lead investor sets the release policy of ${project.name}: how many verifier approvals a release needs and whether an investor must countersign.${currentLead ? ` ${currentLead.name} loses that right.` : ""} The change takes effect at once and is recorded in the audit log.`}
          confirmLabel="Make lead investor"
          pendingLabel="Naming..."
          onClose={() => setNaming(null)}
          onConfirm={() => confirmLead(naming)}
        />
      ) : null}
      {removing ? (
        <ConfirmDialog
          title={`Remove ${removing.member.name} from this project?`}
          description={
            removing.role === "verifier"
              ? `${removing.member.name} will no longer verify milestones of ${project.name} or see the project. Decisions already made stay on the record.`
              : `${removing.member.name} will no longer oversee ${project.name} or see the project. Releases already made are not affected.`
          }
          confirmLabel="Remove"
          pendingLabel="Removing..."
          onClose={() => setRemoving(null)}
          onConfirm={() => confirmRemoval(removing)}
        />
      ) : null}
    </div>
  );
}
