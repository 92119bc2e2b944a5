import {
  formatMoney,
  formatStatus,
  isMilestoneEditable,
  type MilestoneDetailDto,
  type MilestoneStatus,
  ownerTransition,
  type TransitionName,
  type updateMilestoneSchema,
} from "@tranche/domain";
import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { ServiceContext } from "../../context";
import { queryRows, type Tx } from "../../db/client";
import { milestones } from "../../db/schema";
import { AppError, businessRule, conflict, forbidden } from "../../errors";
import { moneyParam, toMoney } from "../../lib/money";
import { type MilestoneAccess, requireVisibleMilestone } from "../access";
import { appendAudit } from "../audit/append";
import { recomputeProjectStatus } from "../projects/recompute-status";
import { openAmount } from "../releases/sums";
import { delayLocked, undelayLocked } from "../verification/delay";
import { requireNoOpenDispute, resubmitLocked } from "../verification/resubmit";
import { milestoneDetail } from "./get";
import { assertNotPast, assertWithinCapital } from "./rules";

type Input = z.output<typeof updateMilestoneSchema>;

export function notEditable(status: MilestoneStatus, verb: "edited" | "deleted") {
  return conflict(`This milestone is ${formatStatus(status)} and can no longer be ${verb}.`, { status });
}

/** The verbs a status sent with an edit may carry out: the owner's transitions, exactly as their endpoints do. */
const OWNER_VERBS: Partial<Record<TransitionName, (tx: Tx, ctx: ServiceContext, access: MilestoneAccess) => unknown>> =
  {
    resubmit: resubmitLocked,
    delay: delayLocked,
    undelay: undelayLocked,
  };

/** Where a status that is not the owner's to set is decided instead. */
const ENDPOINT_OF: Partial<Record<MilestoneStatus, string>> = {
  in_verification: "start",
  verified: "approve",
  rejected: "reject",
};

function statusRefused(id: string, from: MilestoneStatus, to: MilestoneStatus): AppError {
  const endpoint = ENDPOINT_OF[to];
  const message = endpoint
    ? `A milestone becomes ${formatStatus(to)} only through POST /api/milestones/${id}/${endpoint}, by its verifier.`
    : `The status cannot change from ${formatStatus(from)} to ${formatStatus(to)}.`;
  return new AppError("invalid_input", `status: ${message}`, { status: message });
}

/**
 * The owner or an admin edits a milestone that is not verified or in verification. A status sent with the edit
 * is carried out as the owner's transition (rejected → pending is a resubmission, with its dispute check), by the
 * same function as its endpoint; any other status is refused with 400 naming the endpoint that decides it.
 */
export async function updateMilestone(
  ctx: ServiceContext,
  milestoneId: string,
  input: Input,
): Promise<MilestoneDetailDto> {
  return ctx.db.transaction(async (tx) => {
    // The project's row first (its capital is checked below), then the milestone's: the order every action takes.
    const access = await requireVisibleMilestone(tx, ctx.actor, milestoneId, { lock: "project" });
    if (!access.isOwner && !access.isAdmin) {
      throw forbidden("Only the project's owner or an admin can edit milestones.");
    }
    const { milestone } = access;
    const current = milestone.status as MilestoneStatus;
    if (!isMilestoneEditable(current)) throw notEditable(current, "edited");
    // Under an open dispute the rejected milestone stays as it was disputed, for the verifier who decides it.
    if (current === "rejected") await requireNoOpenDispute(tx, access, "edited");
    const target = input.status !== undefined && input.status !== current ? input.status : null;
    const transition = target ? ownerTransition(current, target) : null;
    const verb = transition ? OWNER_VERBS[transition.name] : undefined;
    if (target && !verb) throw statusRefused(milestoneId, current, target);

    // An unchanged past date may stay (a late milestone keeps its date); a new one may not be in the past.
    if (input.dueDate !== undefined && input.dueDate !== milestone.dueDate) assertNotPast(input.dueDate);
    // Read under the project's lock, taken above.
    const { project } = access;
    const amountChanges = input.capitalAmount !== undefined && input.capitalAmount !== toMoney(milestone.capitalAmount);
    if (amountChanges && input.capitalAmount !== undefined) {
      await assertCoversReleases(tx, milestone.id, input.capitalAmount, project.currency);
      await assertWithinCapital(tx, project, input.capitalAmount, milestone.id);
    }

    const changes: Partial<typeof milestones.$inferInsert> = {};
    if (input.title !== undefined && input.title !== milestone.title) changes.title = input.title;
    if (input.description !== undefined && input.description !== milestone.description)
      changes.description = input.description;
    if (input.dueDate !== undefined && input.dueDate !== milestone.dueDate) changes.dueDate = input.dueDate;
    if (amountChanges && input.capitalAmount !== undefined) changes.capitalAmount = moneyParam(input.capitalAmount);

    let updated = milestone;
    if (Object.keys(changes).length > 0) {
      [updated] = await tx
        .update(milestones)
        .set({ ...changes, updatedAt: new Date() })
        .where(eq(milestones.id, milestoneId))
        .returning();
      const before = Object.fromEntries(
        Object.keys(changes).map((key) => [key, milestone[key as keyof typeof changes]]),
      );
      await appendAudit(tx, {
        actorId: ctx.actor.id,
        action: "milestone.updated",
        entityType: "milestone",
        entityId: milestoneId,
        projectId: project.id,
        before,
        after: changes,
      });
      await recomputeProjectStatus(tx, project.id);
    }
    if (verb) {
      await verb(tx, ctx, { ...access, project, milestone: updated });
      [updated] = await tx.select().from(milestones).where(eq(milestones.id, milestoneId));
    }
    return milestoneDetail(tx, { ...access, project, milestone: updated }, ctx.actor);
  });
}

/**
 * A milestone's amount never goes below what was already released on it (the database holds this too), and once
 * part of it was released it stays above that: a pending milestone with nothing open could never be verified again.
 */
async function assertCoversReleases(tx: Tx, milestoneId: string, amount: number, currency: string): Promise<void> {
  // Released on it: its amount less what is still open (the one definition of the open amount).
  const [row] = await queryRows<{ released: string }>(
    tx,
    sql`select m.capital_amount - ${openAmount(sql`m`)} as released from milestones m where m.id = ${milestoneId}`,
  );
  const released = toMoney(row?.released);
  if (amount < released) {
    throw businessRule(
      `The milestone's amount of ${formatMoney(amount, currency)} would be below the ${formatMoney(released, currency)} already released on it.`,
      { capitalAmount: amount, released },
    );
  }
  if (released > 0 && amount === released) {
    throw businessRule(
      `The milestone's amount of ${formatMoney(amount, currency)} is what was already released on it; it must stay above that, so something is left to verify.`,
      { capitalAmount: amount, released },
    );
  }
}
