import type { ProjectDetailDto } from "@tranche/domain";
import { UserPlusIcon } from "lucide-react";
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
import { useAssignMember } from "../api/assign-member";
import { useInvestors } from "../api/get-investors";
import { useVerifiers } from "../api/get-verifiers";

/** Admin: assign a verifier (from the verifiers directory) or an investor to the project. */
export function AssignMemberDialog({ project }: { project: ProjectDetailDto }) {
  const [open, setOpen] = useState(false);
  const [role, setRole] = useState<"verifier" | "investor">("verifier");
  const [userId, setUserId] = useState("");
  const verifiers = useVerifiers({ enabled: open });
  const investors = useInvestors({ enabled: open && role === "investor" });
  const assign = useAssignMember();

  const taken = new Set(
    [...project.verifiers, ...project.investors, ...(project.owner ? [project.owner] : [])].map((m) => m.id),
  );
  const source = role === "verifier" ? verifiers : investors;
  const options = (source.data ?? []).filter((u) => !taken.has(u.id));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!userId) return;
    try {
      const chosen = options.find((o) => o.id === userId);
      await assign.mutateAsync({ projectId: project.id, userId, role });
      toast.success(
        role === "verifier" ? "Verifier assigned" : "Investor assigned",
        `${chosen?.name ?? "The user"} has been added to ${project.name}.`,
      );
      setUserId("");
      setOpen(false);
    } catch (error) {
      toast.error("Error assigning member", errorMessage(error));
    }
  }

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm">
          <UserPlusIcon aria-hidden /> Assign Verifier
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Assign to {project.name}</DialogTitle>
          <DialogDescription>
            Verifiers check this project's milestones; investors follow its progress. A verifier cannot own or invest in
            the project.
          </DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={submit}>
          <Field id="assign-role" label="Role">
            <NativeSelect
              id="assign-role"
              value={role}
              onChange={(e) => {
                setRole(e.target.value as "verifier" | "investor");
                setUserId("");
              }}
            >
              <option value="verifier">Verifier</option>
              <option value="investor">Investor</option>
            </NativeSelect>
          </Field>
          <Field
            id="assign-user"
            label={role === "verifier" ? "Verifier" : "Investor"}
            hint={
              source.isPending
                ? "Loading..."
                : options.length === 0
                  ? "Everyone available is already assigned."
                  : undefined
            }
          >
            <NativeSelect id="assign-user" value={userId} onChange={(e) => setUserId(e.target.value)} required>
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
            <Button type="submit" disabled={!userId || assign.isPending}>
              {assign.isPending ? "Assigning..." : "Assign"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
