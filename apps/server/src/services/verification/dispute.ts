// Disputes (docs/domain.md "Release rules"): the owner disputes a rejection with a statement; an admin assigns a
// different verifier, who re-verifies the milestone alone; their decision closes the dispute. Every step is a
// milestone transition, so it is on the milestone's history and the audit trail.
import type { VerificationDto } from "@tranche/domain";
import { and, eq, isNull } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { milestoneDisputes, milestones, projectMembers, users } from "../../db/schema";
import { businessRule, conflict, forbidden } from "../../errors";
import { membersIn } from "../access";
import { transitionMilestone } from "../milestones/transition";
import { requireOwner, requireStatus } from "./access";
import { recordTransition, withLockedMilestone } from "./locked";
import { roundState } from "./quorum";

export function openDispute(
  ctx: ServiceContext,
  milestoneId: string,
  input: { statement: string },
): Promise<VerificationDto> {
  return withLockedMilestone(ctx, milestoneId, async (tx, access) => {
    requireOwner(access);
    requireStatus(access, ["rejected"], "disputed");
    const state = await roundState(tx, access.milestone);
    if (state.dispute && !state.dispute.closedAt) throw conflict("This rejection is already under dispute.");
    const [dispute] = await tx
      .insert(milestoneDisputes)
      .values({ milestoneId, statement: input.statement, openedBy: ctx.actor.id })
      .returning();
    const admins = await tx.select({ id: users.id }).from(users).where(eq(users.role, "admin"));
    const [updated] = await tx
      .update(milestones)
      .set({ updatedAt: new Date() })
      .where(eq(milestones.id, milestoneId))
      .returning();
    return recordTransition(
      tx,
      ctx,
      access,
      updated,
      { action: "milestone.disputed", after: { dispute: { id: dispute.id, statement: input.statement } } },
      {
        recipients: [...admins.map((a) => a.id), ...membersIn(access, ["investor"])],
        title: "Rejection disputed",
        message: `${ctx.actor.name} disputes the rejection of "${updated.title}" (${access.project.name}): ${input.statement}`,
        category: "verification",
      },
    );
  });
}

/** An admin assigns a verifier of the project who took no part in the rejected round; they decide alone. */
export function assignDispute(
  ctx: ServiceContext,
  milestoneId: string,
  input: { verifierId: string },
): Promise<VerificationDto> {
  return withLockedMilestone(ctx, milestoneId, async (tx, access) => {
    if (!access.isAdmin) throw forbidden("Only an admin can assign a verifier to a dispute.");
    const state = await roundState(tx, access.milestone);
    const open = state.dispute && !state.dispute.closedAt ? state.dispute : null;
    if (!open) throw conflict("This milestone has no open dispute.");
    if (open.verifierId) throw conflict("A verifier is already assigned to this dispute.");
    requireStatus(access, ["rejected"], "reassigned");
    const roles = await tx
      .select({ role: projectMembers.role, name: users.name, userRole: users.role })
      .from(projectMembers)
      .innerJoin(users, eq(users.id, projectMembers.userId))
      .where(and(eq(projectMembers.projectId, access.project.id), eq(projectMembers.userId, input.verifierId)));
    const name = roles[0]?.name;
    if (
      !roles.some((r) => r.role === "verifier" && r.userRole === "verifier") ||
      roles.some((r) => r.role !== "verifier")
    ) {
      throw businessRule("Choose a verifier assigned to this project who neither owns nor invests in it.");
    }
    // Any decision of the rejected round counts as taking part, one a policy change voided included.
    const round = access.milestone.verificationRound;
    if (state.decisions.some((d) => d.round === round && d.userId === input.verifierId)) {
      throw businessRule(`${name} decided the disputed verification; choose a different verifier.`);
    }
    const now = new Date();
    const updated = await transitionMilestone(
      tx,
      access.milestone,
      "reassign",
      { verifierId: input.verifierId, startedAt: now, verificationDate: null },
      now,
    );
    await tx
      .update(milestoneDisputes)
      .set({
        verifierId: input.verifierId,
        round: updated.verificationRound,
        assignedBy: ctx.actor.id,
        assignedAt: now,
      })
      .where(and(eq(milestoneDisputes.id, open.id), isNull(milestoneDisputes.closedAt)));
    return recordTransition(
      tx,
      ctx,
      access,
      updated,
      { action: "milestone.dispute_assigned", after: { dispute: { id: open.id, verifierId: input.verifierId } } },
      {
        recipients: [input.verifierId, ...membersIn(access, ["owner"])],
        title: "Dispute assigned",
        message: `${name} will re-verify the disputed milestone "${updated.title}" (${access.project.name}); their decision closes the dispute.`,
        category: "verification",
      },
    );
  });
}
