import type { ProjectDetailDto, UpdateProjectInput } from "@tranche/domain";
import { PencilIcon, Trash2Icon } from "lucide-react";
import { useState } from "react";
import { useNavigate } from "react-router";
import { BlockedAction } from "@/components/ui/blocked-action";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { toast } from "@/components/ui/toaster";
import { errorMessage } from "@/lib/api-client";
import { useDeleteProject } from "../api/delete-project";
import { useUpdateProject } from "../api/update-project";
import { ProjectForm, type ProjectFormInput, projectFormInput, projectFormValues } from "./project-form";

/** The project page's 'Edit Project' and 'Delete Project', for its owner and admins. */
export function ProjectActions({ project }: { project: ProjectDetailDto }) {
  const { canEdit, canDelete, reasons } = project.permissions;
  if (!canEdit && !canDelete && !reasons.delete) return null;
  return (
    <div className="flex flex-wrap items-start gap-2">
      {canEdit ? <EditProjectDialog project={project} /> : null}
      {canDelete ? <DeleteProjectDialog project={project} /> : null}
      {!canDelete && reasons.delete ? (
        <BlockedAction reason={reasons.delete} className="text-red-700">
          <Trash2Icon aria-hidden /> Delete Project
        </BlockedAction>
      ) : null}
    </div>
  );
}

/** Only the fields the user changed, so an untouched field is never re-checked or re-audited. */
function changedFields(before: ProjectFormInput, after: ProjectFormInput): UpdateProjectInput {
  const keys = Object.keys(after) as (keyof ProjectFormInput)[];
  return Object.fromEntries(keys.filter((key) => after[key] !== before[key]).map((key) => [key, after[key]]));
}

function EditProjectDialog({ project }: { project: ProjectDetailDto }) {
  const [open, setOpen] = useState(false);
  const update = useUpdateProject();
  const initial = projectFormValues(project);

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          <PencilIcon aria-hidden /> Edit Project
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Edit Project</DialogTitle>
          <DialogDescription>Update the project's details and the capital it will release.</DialogDescription>
        </DialogHeader>
        <ProjectForm
          initial={initial}
          submitLabel="Save Changes"
          pendingLabel="Saving..."
          errorTitle="Error updating project"
          onCancel={() => setOpen(false)}
          onSubmit={async (input) => {
            const changes = changedFields(projectFormInput(initial), input);
            if (Object.keys(changes).length > 0) await update.mutateAsync({ id: project.id, ...changes });
            toast.success("Project updated", "Your changes have been saved.");
            setOpen(false);
          }}
        />
      </DialogContent>
    </Dialog>
  );
}

function DeleteProjectDialog({ project }: { project: ProjectDetailDto }) {
  const [open, setOpen] = useState(false);
  const remove = useDeleteProject();
  const navigate = useNavigate();
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        className="text-red-700 hover:bg-red-50 hover:text-red-800"
        onClick={() => setOpen(true)}
      >
        <Trash2Icon aria-hidden /> Delete Project
      </Button>
      {open ? (
        <ConfirmDialog
          title="Are you sure you want to delete this project?"
          description={`“${project.name}” and all of its milestones will be deleted. This cannot be undone.`}
          confirmLabel="Delete Project"
          pendingLabel="Deleting..."
          onClose={() => setOpen(false)}
          onConfirm={async () => {
            try {
              await remove.mutateAsync(project.id);
              navigate("/dashboard", { replace: true });
              toast.success("Project deleted", `“${project.name}” and its milestones have been deleted.`);
            } catch (error) {
              toast.error("Error deleting project", errorMessage(error));
            }
          }}
        />
      ) : null}
    </>
  );
}
