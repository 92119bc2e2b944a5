import type { ProjectDetailDto } from "@tranche/domain";
import { UserPlusIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useAssignMember } from "../api/assign-member";
import { useInvestors } from "../api/get-investors";
import { useVerifiers } from "../api/get-verifiers";
import { PersonPickerDialog } from "./person-picker-dialog";

type MemberRole = "verifier" | "investor";
const ROLE_OPTIONS: { value: MemberRole; label: string }[] = [
  { value: "verifier", label: "Verifier" },
  { value: "investor", label: "Investor" },
];

/** Admin: assign a verifier (from the verifiers directory) or an investor to the project. */
export function AssignMemberDialog({ project }: { project: ProjectDetailDto }) {
  const [open, setOpen] = useState(false);
  const [role, setRole] = useState<MemberRole>("verifier");
  const verifiers = useVerifiers({ enabled: open });
  const investors = useInvestors({ enabled: open && role === "investor" });
  const assign = useAssignMember();
  const taken = new Set(
    [...project.verifiers, ...project.investors, ...(project.owner ? [project.owner] : [])].map((m) => m.id),
  );
  const source = role === "verifier" ? verifiers : investors;
  return (
    <PersonPickerDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button size="sm">
          <UserPlusIcon aria-hidden /> Assign Verifier
        </Button>
      }
      title={`Assign to ${project.name}`}
      description="Verifiers check this project's milestones; investors follow its progress. A verifier cannot own or invest in the project."
      kind={{ value: role, options: ROLE_OPTIONS, onChange: setRole }}
      personLabel={role === "verifier" ? "Verifier" : "Investor"}
      people={(source.data ?? []).filter((u) => !taken.has(u.id))}
      loading={source.isPending}
      noneLeft="Everyone available is already assigned."
      submitLabel="Assign"
      pendingLabel="Assigning..."
      busy={assign.isPending}
      failure="Error assigning member"
      onPick={async (person) => {
        await assign.mutateAsync({ projectId: project.id, userId: person.id, role });
        return {
          title: role === "verifier" ? "Verifier assigned" : "Investor assigned",
          text: `${person.name} has been added to ${project.name}.`,
        };
      }}
    />
  );
}
