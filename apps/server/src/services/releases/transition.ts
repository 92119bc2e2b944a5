import { formatMoney, type ReleaseDto } from "@tranche/domain";
import { and, eq, type SQL, sql } from "drizzle-orm";
import { callerId, holdApiToken } from "../../auth/api-tokens";
import type { Caller, CallerContext } from "../../context";
import type { Tx } from "../../db/client";
import { auditEvents, disbursements, users } from "../../db/schema";
import { conflict, notFound } from "../../errors";
import { toMoney } from "../../lib/money";
import { memberIds } from "../access";
import { appendAudit } from "../audit/append";
import { type NotificationInput, notify } from "../notifications/notify";
import { publishEvent } from "../outbox/outbox";
import { recomputeProjectStatus } from "../projects/recompute-status";
import { milestoneLink } from "../verification/locked";
import { loadRelease, releaseEventData, visibleReleases } from "./dto";

export type ReleaseRow = typeof disbursements.$inferSelect;

/**
 * Runs `work` in one transaction with the release row locked (FOR UPDATE), so concurrent transitions of
 * one release run one after another and each sees the state the previous one committed. A release the
 * caller may not see is 404.
 */
export function withLockedRelease<T>(
  ctx: CallerContext,
  releaseId: string,
  work: (tx: Tx, release: ReleaseRow) => Promise<T>,
): Promise<T> {
  return ctx.db.transaction(async (tx) => {
    const [release] = await tx.select().from(disbursements).where(eq(disbursements.id, releaseId)).for("update");
    if (!release) throw notFound("Release");
    // A token revoked while this waited for the row writes nothing.
    if (ctx.caller.kind === "token") await holdApiToken(tx, ctx.caller.token);
    const visible = visibleReleases(ctx.caller);
    const seen = visible && (await loadRelease(tx, and(eq(disbursements.id, releaseId), visible) as SQL, ctx.caller));
    if (visible && !seen) throw notFound("Release");
    return work(tx, release);
  });
}

/** 409 naming the current status, e.g. "Release is cancelled; it cannot be settled." */
export function requireReleaseStatus(release: ReleaseRow, allowed: ReleaseRow["status"][], verb: string): void {
  if (!allowed.includes(release.status)) {
    throw conflict(`Release is ${release.status}; it cannot be ${verb}.`, { status: release.status });
  }
}

/**
 * A custodian's report that names the instruction it answers must answer the current one: after a failure and a
 * re-instruction, a late settlement or failure of the first would otherwise be taken for the second's (and a
 * failure so taken could lead to a third instruction while the second is being paid). 409, nothing changed.
 */
export async function requireCurrentInstruction(
  tx: Tx,
  release: ReleaseRow,
  reported: string | undefined,
): Promise<void> {
  // A uuid has no letter case: one sent in capitals names the same instruction (ours are stored in lower case).
  const instructionId = reported?.toLowerCase();
  if (instructionId === undefined || instructionId === release.instructionId) return;
  const details = { instructionId: release.instructionId, status: release.status };
  // Which it is, from the record: an instruction of this release that a re-instruction replaced, or not one of its.
  const [replaced] = await tx
    .select({ id: auditEvents.id })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.entityType, "disbursement"),
        eq(auditEvents.entityId, release.id),
        eq(auditEvents.action, "release.reinstructed"),
        sql`${auditEvents.before} ->> 'instructionId' = ${instructionId}`,
      ),
    )
    .limit(1);
  throw conflict(
    replaced
      ? `Instruction ${instructionId} is no longer this release's: it was re-instructed as ${release.instructionId}.`
      : `Instruction ${instructionId} is not one of this release's; its instruction is ${release.instructionId}.`,
    details,
  );
}

/** What the audit record keeps of a release. */
function snapshot(r: ReleaseRow) {
  return {
    milestoneId: r.milestoneId,
    status: r.status,
    instructionId: r.instructionId,
    settlementReference: r.settlementReference,
    settledAt: r.settledAt,
    failureReason: r.failureReason,
    cancellationReason: r.cancellationReason,
  };
}

/** How the audit record names an actor that is not a person. */
const actorDetail = (caller: Caller) =>
  caller.kind === "token" ? { apiToken: { id: caller.token.id, name: caller.token.name } } : {};

export interface ReleaseChange {
  action: "release.settled" | "release.failed" | "release.reinstructed" | "release.cancelled";
  /** The outbox event type (the contract: a re-instruction is published as release.instructed). */
  event: "release.instructed" | "release.settled" | "release.failed" | "release.cancelled";
  notice: { title: string; message: (amount: string, milestone: string, project: string) => string };
  /** Admins are told too (a failed release waits on one of them). */
  notifyAdmins?: boolean;
}

/**
 * The common tail of a release transition, inside its transaction: write the new state, recompute the
 * project (released capital changed), audit with the caller as actor, notify the project's owners and
 * investors (their open pages refresh through the notification stream), publish the outbox event.
 */
export async function recordReleaseChange(
  tx: Tx,
  ctx: CallerContext,
  before: ReleaseRow,
  changes: Partial<ReleaseRow>,
  change: ReleaseChange,
): Promise<ReleaseDto> {
  const [after] = await tx
    .update(disbursements)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(disbursements.id, before.id))
    .returning();
  await recomputeProjectStatus(tx, after.projectId);
  const actorId = callerId(ctx.caller);
  await appendAudit(tx, {
    actorId,
    action: change.action,
    entityType: "disbursement",
    entityId: after.id,
    projectId: after.projectId,
    before: snapshot(before),
    after: { ...snapshot(after), ...actorDetail(ctx.caller) },
  });
  const dto = await loadRelease(tx, eq(disbursements.id, after.id), ctx.caller);
  if (!dto) throw new Error(`release ${after.id} vanished inside its own transaction`);
  const recipients = await memberIds(tx, after.projectId, ["owner", "investor"]);
  if (change.notifyAdmins) {
    const admins = await tx.select({ id: users.id }).from(users).where(eq(users.role, "admin"));
    recipients.push(...admins.map((a) => a.id));
  }
  const notice: NotificationInput = {
    title: change.notice.title,
    message: change.notice.message(
      formatMoney(toMoney(after.amount), dto.currency),
      dto.milestone.name,
      dto.project.name,
    ),
    category: "release",
    link: milestoneLink(after.milestoneId),
    subject: { projectId: after.projectId, milestoneId: after.milestoneId },
  };
  await notify(tx, recipients, notice, actorId);
  await publishEvent(tx, change.event, await releaseEventData(tx, after.id));
  return dto;
}
