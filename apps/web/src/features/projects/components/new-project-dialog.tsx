import { PlusIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { toast } from "@/components/ui/toaster";
import { useCreateProject } from "../api/create-project";
import { EMPTY_PROJECT_FORM, ProjectForm } from "./project-form";

/** The 'New Project' dialog, saved by the server. */
export function NewProjectDialog() {
  const [open, setOpen] = useState(false);
  const create = useCreateProject();

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button>
          <PlusIcon aria-hidden /> New Project
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>New Project</DialogTitle>
          <DialogDescription>Define the project and the capital it will release in milestones.</DialogDescription>
        </DialogHeader>
        {/* The form unmounts with the closed dialog, so each opening starts empty. */}
        <ProjectForm
          initial={EMPTY_PROJECT_FORM}
          submitLabel="Create Project"
          pendingLabel="Creating..."
          errorTitle="Error creating project"
          onCancel={() => setOpen(false)}
          onSubmit={async (input) => {
            await create.mutateAsync(input);
            toast.success("Project Created", "Your project has been created successfully");
            setOpen(false);
          }}
        />
      </DialogContent>
    </Dialog>
  );
}
