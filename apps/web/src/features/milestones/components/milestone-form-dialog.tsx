import { zodResolver } from "@hookform/resolvers/zod";
import {
  formatStatus,
  type MilestoneDto,
  type MilestoneFormValues,
  milestoneFormSchema,
  ownerSelectableStatuses,
  todayIso,
} from "@tranche/domain";
import { useMemo, useRef } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Field, Input, NativeSelect, Textarea } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { ApiError, errorMessage } from "@/lib/api-client";
import { showErrorsThenFocus } from "@/lib/focus-field";
import { useCreateMilestone } from "../api/create-milestone";
import { useUpdateMilestone } from "../api/update-milestone";

export const PAST_DUE_MESSAGE = "Due date cannot be in the past.";

/** The milestone add/edit dialog. `milestone` set: edit; otherwise create. Mount it fresh for each use. */
export function MilestoneFormDialog({
  projectId,
  milestone,
  canSetStatus = false,
  onClose,
}: {
  projectId: string;
  milestone?: MilestoneDto;
  /** The owner may move the status along their transitions; anyone else edits the other fields only. */
  canSetStatus?: boolean;
  onClose: () => void;
}) {
  const today = todayIso();
  // The picker refuses past dates; a late milestone being edited may keep the date it already has.
  const schema = useMemo(
    () =>
      milestoneFormSchema.superRefine((value, ctx) => {
        if (value.dueDate && value.dueDate < today && value.dueDate !== milestone?.dueDate) {
          ctx.addIssue({ code: "custom", path: ["dueDate"], message: PAST_DUE_MESSAGE });
        }
      }),
    [today, milestone?.dueDate],
  );
  const form = useForm<MilestoneFormValues>({
    resolver: zodResolver(schema),
    defaultValues: milestone
      ? {
          title: milestone.title,
          description: milestone.description,
          dueDate: milestone.dueDate,
          capitalAmount: milestone.capitalAmount,
          status: milestone.status,
        }
      : { title: "", description: "", dueDate: today, capitalAmount: 0, status: "pending" },
  });
  const create = useCreateMilestone();
  const update = useUpdateMilestone();
  const saving = create.isPending || update.isPending;
  const errors = form.formState.errors;
  const formRef = useRef<HTMLFormElement>(null);

  const submit = form.handleSubmit(async (values) => {
    try {
      if (milestone) {
        await update.mutateAsync({ id: milestone.id, ...values });
        toast.success("Milestone updated");
      } else {
        const { status: _status, ...input } = values;
        await create.mutateAsync({ projectId, ...input });
        toast.success("Milestone created");
      }
      onClose();
    } catch (error) {
      // The form's own checks focus their first field (react-hook-form); the server's 400 does the same here.
      if (error instanceof ApiError) {
        const refused = Object.entries(error.fieldErrors).filter(([field]) => field in values);
        showErrorsThenFocus(() => {
          for (const [field, message] of refused) form.setError(field as keyof MilestoneFormValues, { message });
        }, formRef.current);
      }
      toast.error("Error saving milestone", errorMessage(error));
    }
  });

  const field = (name: keyof MilestoneFormValues) => ({ id: `milestone-${name}` });

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{milestone ? "Edit Milestone" : "Add Milestone"}</DialogTitle>
          <DialogDescription>
            {milestone
              ? "Update the milestone's details. Verified milestones and those in verification cannot be changed."
              : "The capital amount is released when a verifier approves this milestone."}
          </DialogDescription>
        </DialogHeader>
        <form ref={formRef} className="grid gap-4" onSubmit={submit} noValidate>
          <Field id="milestone-title" label="Title" error={errors.title?.message}>
            <Input {...field("title")} {...form.register("title")} />
          </Field>
          <Field id="milestone-description" label="Description" error={errors.description?.message}>
            <Textarea {...field("description")} {...form.register("description")} />
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id="milestone-dueDate" label="Due Date" error={errors.dueDate?.message}>
              <Input type="date" min={today} {...field("dueDate")} {...form.register("dueDate")} />
            </Field>
            <Field id="milestone-capitalAmount" label="Capital Amount" error={errors.capitalAmount?.message}>
              <Input
                type="number"
                inputMode="decimal"
                min={1}
                step="any"
                {...field("capitalAmount")}
                {...form.register("capitalAmount", { valueAsNumber: true })}
              />
            </Field>
          </div>
          {milestone ? (
            <Field
              id="milestone-status"
              label="Status"
              error={errors.status?.message}
              hint={canSetStatus ? undefined : "Only the project's owner changes a milestone's status."}
            >
              <NativeSelect {...field("status")} {...form.register("status")}>
                {(canSetStatus ? ownerSelectableStatuses(milestone.status) : [milestone.status]).map((status) => (
                  <option key={status} value={status}>
                    {formatStatus(status)}
                  </option>
                ))}
              </NativeSelect>
            </Field>
          ) : null}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={saving}>
              {milestone ? "Save Changes" : "Create Milestone"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
