// The one way a milestone's status changes (docs/domain.md "Milestone states"). Every verb — start, resume,
// approve, release a part, reject, resubmit, reassign a dispute, delay, undelay — and a status sent with an edit
// come here, inside their transaction with the milestone row locked. The database trigger of migration 0014
// refuses anything else.
import { findTransition, type MilestoneStatus, type TransitionName } from "@tranche/domain";
import { and, eq, isNull } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { milestones, verificationDecisions } from "../../db/schema";
import { conflict } from "../../errors";
import type { MilestoneRow } from "../access";

type MilestoneChanges = Omit<Partial<typeof milestones.$inferInsert>, "status" | "verificationRound" | "id">;

/**
 * Moves `milestone` (locked by the caller) along the named transition and returns the updated row. A transition
 * that closes the round bumps it and clears its checklist; leaving a rejection also voids the round's decisions, so
 * they never count again; one that opens a verification clears the checklist and comments.
 */
export async function transitionMilestone(
  tx: Tx,
  milestone: MilestoneRow,
  name: TransitionName,
  changes: MilestoneChanges = {},
  now = new Date(),
): Promise<MilestoneRow> {
  const from = milestone.status as MilestoneStatus;
  const edge = findTransition(name, from);
  if (!edge) throw conflict(`Milestone is ${from.replace("_", " ")}; it cannot be ${VERBS[name]}.`, { status: from });
  if (edge.round === "void") {
    await tx
      .update(verificationDecisions)
      .set({ voidedAt: now, voidReason: name as "resubmit" | "delay" | "reassign" })
      .where(
        and(
          eq(verificationDecisions.milestoneId, milestone.id),
          eq(verificationDecisions.round, milestone.verificationRound),
          isNull(verificationDecisions.voidedAt),
        ),
      );
  }
  const round = edge.round === "keep" ? milestone.verificationRound : milestone.verificationRound + 1;
  // A verification that opens (start, resume, a dispute's reassignment) starts from an empty checklist and no
  // comments: what was ticked and written belongs to an earlier decision (a milestone is only ever delayed from
  // pending or rejected, so none is in progress), and a comment left in the verifier's box would become the reason
  // of a rejection nobody typed. A round that closes clears its checklist too.
  const cleared = { checklist: {}, checklistNotes: {} };
  const opened = edge.to === "in_verification" && from !== "in_verification" ? { ...cleared, comments: null } : {};
  const closed = edge.round === "keep" ? {} : cleared;
  const [updated] = await tx
    .update(milestones)
    .set({ ...closed, ...opened, ...changes, status: edge.to, verificationRound: round, updatedAt: now })
    .where(and(eq(milestones.id, milestone.id), eq(milestones.status, from)))
    .returning();
  if (!updated) throw conflict("The milestone changed meanwhile; reload it and try again.");
  return updated;
}

const VERBS: Record<TransitionName, string> = {
  start: "started",
  resume: "resumed",
  approve: "approved",
  release_part: "approved",
  reject: "rejected",
  resubmit: "resubmitted",
  reassign: "reassigned",
  delay: "delayed",
  undelay: "set back to pending",
};
