import type { VerificationDto } from "@tranche/domain";
import { and, eq, isNull } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import type { DbOrTx, Tx } from "../../db/client";
import { milestoneDisputes } from "../../db/schema";
import { conflict } from "../../errors";
import { type MilestoneAccess, membersIn, milestoneVerifiers } from "../access";
import { transitionMilestone } from "../milestones/transition";
import { requireOwner, requireStatus } from "./access";
import { recordTransition, withLockedMilestone } from "./locked";

/**
 * The owner's resubmission: rejected → pending. The verifier stays on the milestone so they hear of it;
 * the rejection comment stays visible until the next decision replaces it. The round's decisions become void.
 */
export function resubmitMilestone(ctx: ServiceContext, milestoneId: string): Promise<VerificationDto> {
  return withLockedMilestone(ctx, milestoneId, (tx, access) => resubmitLocked(tx, ctx, access));
}

/** Whether the milestone has a dispute still open (at most one is: milestone_disputes_open_key). */
export async function hasOpenDispute(db: DbOrTx, milestoneId: string): Promise<boolean> {
  const [open] = await db
    .select({ id: milestoneDisputes.id })
    .from(milestoneDisputes)
    .where(and(eq(milestoneDisputes.milestoneId, milestoneId), isNull(milestoneDisputes.closedAt)))
    .limit(1);
  return open !== undefined;
}

/** A rejection under dispute waits for the dispute's verifier: the owner cannot close its round meanwhile. */
export async function requireNoOpenDispute(tx: Tx, access: MilestoneAccess, verb: string): Promise<void> {
  if (await hasOpenDispute(tx, access.milestone.id)) {
    throw conflict(`This rejection is under dispute; it cannot be ${verb}.`);
  }
}

/** The resubmission inside a transaction that holds the milestone's lock (its endpoint, or a status edit). */
export async function resubmitLocked(tx: Tx, ctx: ServiceContext, access: MilestoneAccess): Promise<VerificationDto> {
  requireOwner(access);
  requireStatus(access, ["rejected"], "resubmitted");
  await requireNoOpenDispute(tx, access, "resubmitted");
  const now = new Date();
  const updated = await transitionMilestone(
    tx,
    access.milestone,
    "resubmit",
    { verificationDate: null, startedAt: null },
    now,
  );
  const verifiers = milestoneVerifiers(access, updated.verifierId, true);
  return recordTransition(
    tx,
    ctx,
    access,
    updated,
    { action: "milestone.resubmitted" },
    {
      // Its verifier (if they have left the project, every verifier whose queue it is back in), and the investors,
      // who were told of the rejection and that its capital is withheld.
      recipients: [...membersIn(access, ["investor"]), ...verifiers],
      title: "Milestone resubmitted",
      message: `${ctx.actor.name} resubmitted "${updated.title}" (${access.project.name}) for verification.`,
      category: "milestone",
      // Back in the verifier's queue: their phone hears of it.
      push: { urgency: "normal", recipients: verifiers },
    },
  );
}
