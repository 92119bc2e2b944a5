import type { MilestoneDto } from "@tranche/domain";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { toast } from "@/components/ui/toaster";
import { errorMessage } from "@/lib/api-client";
import { useDeleteMilestone } from "../api/delete-milestone";

/** SPEC.md §2.7: 'Are you sure you want to delete this milestone?' */
export function DeleteMilestoneDialog({
  milestone,
  onClose,
  onDeleted,
}: {
  milestone: Pick<MilestoneDto, "id" | "title">;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const remove = useDeleteMilestone();
  async function confirm(event: React.MouseEvent) {
    // Keep the dialog open until the server answers.
    event.preventDefault();
    try {
      await remove.mutateAsync(milestone.id);
      toast.success("Milestone deleted", "The milestone has been successfully deleted.");
      onClose();
      onDeleted?.();
    } catch (error) {
      toast.error("Error deleting milestone", errorMessage(error));
      onClose();
    }
  }
  return (
    <AlertDialog open onOpenChange={(open) => !open && onClose()}>
      <AlertDialogContent>
        <AlertDialogTitle>Are you sure you want to delete this milestone?</AlertDialogTitle>
        <AlertDialogDescription>
          “{milestone.title}” and its capital amount will be removed from the project. This cannot be undone.
        </AlertDialogDescription>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction onClick={confirm} disabled={remove.isPending}>
            {remove.isPending ? "Deleting..." : "Delete"}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
