import {
  CHECKLIST_ITEMS,
  type Checklist,
  type ChecklistNotes,
  type SeenState,
  type VerificationDto,
} from "@tranche/domain";
import { eq } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { milestones } from "../../db/schema";
import { appendAudit } from "../audit/append";
import { type Replay, rememberAnswer, requestScope, storedAnswer } from "../idempotency";
import { requireDecidingVerifier, requireStatus } from "./access";
import { toChecklist, toChecklistNotes, toVerificationDto } from "./dto";
import { withLockedMilestone } from "./locked";
import { requireSeenState } from "./seen";

type ChecklistInput = Checklist & SeenState & { notes?: ChecklistNotes; idempotencyKey?: string };

/** Only the items with something to say: an empty note removes the item's note. */
function cleanNotes(notes: ChecklistNotes): ChecklistNotes {
  return Object.fromEntries(
    CHECKLIST_ITEMS.flatMap(({ key }) => (notes[key] ? [[key, notes[key]]] : [])),
  ) as ChecklistNotes;
}

/**
 * Stores the six checklist items (and, when sent, a note per item) while the milestone is in verification
 * (completeness is advisory). Notes not sent are kept as they were.
 */
export function updateChecklist(
  ctx: ServiceContext,
  milestoneId: string,
  input: ChecklistInput,
): Promise<Replay<VerificationDto> & { replayed: boolean }> {
  const scope = requestScope("checklist", milestoneId, input);
  return withLockedMilestone(ctx, milestoneId, async (tx, access) => {
    const stored = await storedAnswer<VerificationDto>(tx, ctx.actor.id, input.idempotencyKey, scope);
    if (stored) return { ...stored, replayed: true };
    requireDecidingVerifier(access, ctx.actor);
    requireSeenState(access, input);
    requireStatus(access, ["in_verification"], "checked");
    const checklist = Object.fromEntries(CHECKLIST_ITEMS.map(({ key }) => [key, input[key]])) as Checklist;
    const notesBefore = toChecklistNotes(access.milestone.checklistNotes);
    const notes = input.notes ? cleanNotes(input.notes) : notesBefore;
    const [updated] = await tx
      .update(milestones)
      .set({ checklist, checklistNotes: notes, updatedAt: new Date() })
      .where(eq(milestones.id, milestoneId))
      .returning();
    await appendAudit(tx, {
      actorId: ctx.actor.id,
      action: "milestone.checklist_updated",
      entityType: "milestone",
      entityId: milestoneId,
      projectId: access.project.id,
      before: { checklist: toChecklist(access.milestone.checklist), notes: notesBefore },
      after: { checklist, notes },
    });
    const body = await toVerificationDto(tx, { ...access, milestone: updated }, ctx.actor);
    await rememberAnswer(tx, ctx.actor.id, input.idempotencyKey, scope, { status: 200, body });
    return { status: 200, body, replayed: false };
  });
}
