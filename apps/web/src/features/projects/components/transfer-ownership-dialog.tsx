import type { ProjectDetailDto } from "@tranche/domain";
import { ArrowRightLeftIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useProjectOwners } from "../api/get-investors";
import { useTransferOwnership } from "../api/transfer-ownership";
import { PersonPickerDialog } from "./person-picker-dialog";

/** Admin: hand the project to another project owner, e.g. before the current owner takes another role. */
export function TransferOwnershipDialog({ project }: { project: ProjectDetailDto }) {
  const [open, setOpen] = useState(false);
  const owners = useProjectOwners({ enabled: open });
  const transfer = useTransferOwnership();
  return (
    <PersonPickerDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button size="sm" variant="outline">
          <ArrowRightLeftIcon aria-hidden /> Transfer ownership
        </Button>
      }
      title={`Transfer ${project.name}`}
      description={
        <>
          The new owner manages the project and its milestones from now on.{" "}
          {project.owner ? `${project.owner.name} will no longer own it.` : null} Both are notified, and the change is
          recorded in the audit log.
        </>
      }
      personLabel="New owner"
      people={(owners.data ?? []).filter((u) => u.id !== project.owner?.id)}
      loading={owners.isPending}
      noneLeft="No other user has the project owner role."
      submitLabel="Transfer ownership"
      pendingLabel="Transferring..."
      busy={transfer.isPending}
      failure="Error transferring ownership"
      onPick={async (person) => {
        await transfer.mutateAsync({ projectId: project.id, userId: person.id });
        return { title: "Ownership transferred", text: `${person.name} now owns ${project.name}.` };
      }}
    />
  );
}
