import type { Currency, MilestoneDto } from "@tranche/domain";
import { PlusIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/feedback";
import { DeleteMilestoneDialog } from "./delete-milestone-dialog";
import { MilestoneCard } from "./milestone-card";
import { MilestoneFormDialog } from "./milestone-form-dialog";

type Dialog =
  | { kind: "create" }
  | { kind: "edit"; milestone: MilestoneDto }
  | { kind: "delete"; milestone: MilestoneDto };

/** The Milestones tab: cards, and for the owner (or an admin) add, edit and delete. */
export function ProjectMilestones({
  projectId,
  milestones,
  currency,
  canManage,
  canSetStatus,
}: {
  projectId: string;
  milestones: MilestoneDto[];
  currency: Currency;
  canManage: boolean;
  canSetStatus: boolean;
}) {
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const close = () => setDialog(null);
  return (
    <div className="grid gap-4">
      {canManage && milestones.length > 0 ? (
        <div className="flex justify-end">
          <Button onClick={() => setDialog({ kind: "create" })}>
            <PlusIcon aria-hidden /> Add Milestone
          </Button>
        </div>
      ) : null}
      {milestones.length === 0 ? (
        <EmptyState title="No milestones have been created for this project yet.">
          {canManage ? (
            <Button className="mt-2" onClick={() => setDialog({ kind: "create" })}>
              <PlusIcon aria-hidden /> Create First Milestone
            </Button>
          ) : null}
        </EmptyState>
      ) : (
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3">
          {milestones.map((m) => (
            <MilestoneCard
              key={m.id}
              milestone={m}
              currency={currency}
              onEdit={canManage ? () => setDialog({ kind: "edit", milestone: m }) : undefined}
              onDelete={canManage ? () => setDialog({ kind: "delete", milestone: m }) : undefined}
            />
          ))}
        </div>
      )}
      {dialog?.kind === "create" ? <MilestoneFormDialog projectId={projectId} onClose={close} /> : null}
      {dialog?.kind === "edit" ? (
        <MilestoneFormDialog
          key={dialog.milestone.id}
          projectId={projectId}
          milestone={dialog.milestone}
          canSetStatus={canSetStatus}
          onClose={close}
        />
      ) : null}
      {dialog?.kind === "delete" ? <DeleteMilestoneDialog milestone={dialog.milestone} onClose={close} /> : null}
    </div>
  );
}
