import type { ProjectDetailDto } from "@tranche/domain";
import { ArrowRightLeftIcon } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { Field, NativeSelect } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { errorMessage } from "@/lib/api-client";
import { useProjectOwners } from "../api/get-investors";
import { useTransferOwnership } from "../api/transfer-ownership";

/** Admin: hand the project to another project owner, e.g. before the current owner takes another role. */
export function TransferOwnershipDialog({ project }: { project: ProjectDetailDto }) {
  const [open, setOpen] = useState(false);
  const [userId, setUserId] = useState("");
  const owners = useProjectOwners({ enabled: open });
  const transfer = useTransferOwnership();
  const options = (owners.data ?? []).filter((u) => u.id !== project.owner?.id);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!userId) return;
    try {
      const chosen = options.find((o) => o.id === userId);
      await transfer.mutateAsync({ projectId: project.id, userId });
      toast.success("Ownership transferred", `${chosen?.name ?? "The new owner"} now owns ${project.name}.`);
      setUserId("");
      setOpen(false);
    } catch (error) {
      toast.error("Error transferring ownership", errorMessage(error));
    }
  }

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="outline">
          <ArrowRightLeftIcon aria-hidden /> Transfer ownership
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Transfer {project.name}</DialogTitle>
          <DialogDescription>
            The new owner manages the project and its milestones from now on.{" "}
            {project.owner ? `${project.owner.name} will no longer own it.` : null} Both are notified, and the change is
            recorded in the audit log.
          </DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={submit}>
          <Field
            id="transfer-owner"
            label="New owner"
            hint={
              owners.isPending
                ? "Loading..."
                : options.length === 0
                  ? "No other user has the project owner role."
                  : undefined
            }
          >
            <NativeSelect id="transfer-owner" value={userId} onChange={(e) => setUserId(e.target.value)} required>
              <option value="">Choose…</option>
              {options.map((u) => (
                <option key={u.id} value={u.id}>
                  {u.name}
                  {u.organization ? ` — ${u.organization}` : ""}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={!userId || transfer.isPending}>
              {transfer.isPending ? "Transferring..." : "Transfer ownership"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
