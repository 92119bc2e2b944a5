import type { MilestoneDto } from "@tranche/domain";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { toast } from "@/components/ui/toaster";
import { errorMessage } from "@/lib/api-client";
import { useDeleteMilestone } from "../api/delete-milestone";

/**
 * Asks 'Are you sure you want to delete this milestone?' before deleting it, naming what goes with it: its capital
 * amount and the evidence files uploaded to it.
 */
export function DeleteMilestoneDialog({
  milestone,
  onClose,
  onDeleted,
}: {
  milestone: Pick<MilestoneDto, "id" | "title" | "evidenceCount">;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const remove = useDeleteMilestone();
  const files = milestone.evidenceCount;
  const removed =
    files > 0
      ? `“${milestone.title}”, its capital amount and its ${files} evidence ${files === 1 ? "file" : "files"}`
      : `“${milestone.title}” and its capital amount`;
  return (
    <ConfirmDialog
      title="Are you sure you want to delete this milestone?"
      description={`${removed} will be removed from the project. This cannot be undone.`}
      confirmLabel="Delete"
      pendingLabel="Deleting..."
      onClose={onClose}
      onConfirm={async () => {
        try {
          await remove.mutateAsync(milestone.id);
          toast.success("Milestone deleted", "The milestone has been successfully deleted.");
          onDeleted?.();
        } catch (error) {
          toast.error("Error deleting milestone", errorMessage(error));
        }
      }}
    />
  );
}
