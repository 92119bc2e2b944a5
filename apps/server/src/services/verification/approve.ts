import { formatMoney, type VerificationDto } from "@tranche/domain";
import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { disbursements, idempotencyKeys, milestones } from "../../db/schema";
import { conflict } from "../../errors";
import { toMoney } from "../../lib/money";
import { memberIds } from "../access";
import { publishEvent } from "../outbox/outbox";
import { releaseEventData } from "../releases/dto";
import { requireDecidingVerifier, requireStatus } from "./access";
import { publishDecision } from "./events";
import { recordTransition, withLockedMilestone } from "./locked";

export interface ApproveResult {
  status: number;
  body: VerificationDto;
  replayed: boolean;
}

/**
 * in_verification → verified, releasing the milestone's capital exactly once: the row lock serialises
 * approvals, the unique disbursement per milestone backs it up, and an Idempotency-Key replays the original
 * answer to a retry (checked after the lock, so a concurrent retry sees the committed key).
 */
export function approveMilestone(
  ctx: ServiceContext,
  milestoneId: string,
  input: { comments?: string; idempotencyKey?: string },
): Promise<ApproveResult> {
  const scope = `approve:${milestoneId}`;
  return withLockedMilestone(ctx, milestoneId, async (tx, access) => {
    if (input.idempotencyKey) {
      const [stored] = await tx
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, ctx.actor.id), eq(idempotencyKeys.key, input.idempotencyKey)));
      if (stored) {
        if (stored.scope !== scope) throw conflict("This Idempotency-Key was already used for a different request.");
        return { status: stored.status, body: stored.body as VerificationDto, replayed: true };
      }
    }
    requireDecidingVerifier(access, ctx.actor);
    requireStatus(access, ["in_verification"], "approved");
    const { project, milestone } = access;
    const now = new Date();
    const [updated] = await tx
      .update(milestones)
      .set({
        status: "verified",
        verificationDate: now,
        comments: input.comments?.length ? input.comments : null,
        verifierId: ctx.actor.id,
        updatedAt: now,
      })
      .where(eq(milestones.id, milestoneId))
      .returning();
    const [release] = await tx
      .insert(disbursements)
      .values({
        milestoneId,
        projectId: project.id,
        amount: milestone.capitalAmount,
        currency: project.currency,
        releasedBy: ctx.actor.id,
        releasedAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!release) throw conflict("Capital for this milestone has already been released.");
    const amount = toMoney(milestone.capitalAmount);
    const body = await recordTransition(
      tx,
      ctx,
      access,
      updated,
      {
        action: "milestone.approved",
        after: {
          release: {
            disbursementId: release.id,
            instructionId: release.instructionId,
            amount,
            currency: project.currency,
          },
        },
      },
      {
        recipients: await memberIds(tx, project.id, ["owner", "investor"]),
        title: "Milestone verified",
        message: `"${updated.title}" (${project.name}) was verified: ${formatMoney(amount, project.currency)} approved for capital release.`,
        category: "verification",
      },
    );
    // After the audit event, so the release's data can carry that event's hash.
    await publishDecision(tx, "milestone.verified", { milestone: updated, project, verifier: ctx.actor });
    await publishEvent(tx, "release.instructed", await releaseEventData(tx, release.id));
    if (input.idempotencyKey) {
      // The same key racing on another milestone committed first: this approval rolls back as a conflict.
      const [saved] = await tx
        .insert(idempotencyKeys)
        .values({ userId: ctx.actor.id, key: input.idempotencyKey, scope, status: 200, body })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      if (!saved) throw conflict("This Idempotency-Key was already used for a different request.");
    }
    return { status: 200, body, replayed: false };
  });
}
