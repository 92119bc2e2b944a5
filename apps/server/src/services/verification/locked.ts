import type { VerificationDto } from "@tranche/domain";
import type { ServiceContext } from "../../context";
import type { Tx } from "../../db/client";
import { type MilestoneAccess, type MilestoneRow, requireVisibleMilestone } from "../access";
import { type AuditInput, appendAudit } from "../audit/append";
import { appendCertifiedApproval, type PreparedCertificate } from "../certificates/facts";
import { type NotificationInput, notify } from "../notifications/notify";
import { recomputeProjectStatus } from "../projects/recompute-status";
import { toVerificationDto } from "./dto";
import type { RoundState } from "./quorum";

/** Runs `work` in one transaction with the milestone row locked, so transitions never interleave. */
export function withLockedMilestone<T>(
  ctx: ServiceContext,
  milestoneId: string,
  work: (tx: Tx, access: MilestoneAccess) => Promise<T>,
): Promise<T> {
  return ctx.db.transaction(async (tx) => {
    const access = await requireVisibleMilestone(tx, ctx.actor, milestoneId, { lock: true });
    return work(tx, access);
  });
}

/** What the audit record keeps of a milestone's verification state. */
export function verificationSnapshot(m: MilestoneRow) {
  return {
    status: m.status,
    verifierId: m.verifierId,
    startedAt: m.startedAt,
    verificationDate: m.verificationDate,
    comments: m.comments,
  };
}

/** A milestone's page; a notice about its verification opens the Verification tab. */
export const milestoneLink = (id: string, tab?: "verification") => `/milestones/${id}${tab ? `?tab=${tab}` : ""}`;

type TransitionEvent = { action: string; after?: Record<string, unknown> };
type TransitionNotice = {
  recipients: (string | null)[];
  title: string;
  message: string;
  category: "milestone" | "verification";
  push?: NotificationInput["push"];
};

/**
 * The common tail of a status transition, inside its transaction: notify (never the actor), work out the answer
 * (the milestone's new verification state, from `round` when the caller has the round as it now stands), recompute
 * the project and append the audit event (with a release's certificate, issued citing it: appendCertifiedApproval).
 */
export async function recordTransition(
  tx: Tx,
  ctx: ServiceContext,
  access: MilestoneAccess,
  updated: MilestoneRow,
  event: TransitionEvent,
  notice: TransitionNotice,
  { certificate, round }: { certificate?: PreparedCertificate; round?: RoundState } = {},
): Promise<VerificationDto> {
  const { project } = access;
  // What needs no audit lock comes first. The lock is taken by the rollup's refresh and held until commit, and every
  // audited write waits on it (docs/decisions/029-approvals-hold-the-lock-for-writes-only.md).
  await notify(
    tx,
    notice.recipients,
    {
      title: notice.title,
      message: notice.message,
      category: notice.category,
      link: milestoneLink(updated.id, notice.category === "verification" ? "verification" : undefined),
      subject: { projectId: project.id, milestoneId: updated.id },
      push: notice.push,
    },
    ctx.actor.id,
  );
  const decidedNow =
    updated.verificationDate !== null &&
    updated.verificationDate.getTime() !== access.milestone.verificationDate?.getTime();
  const answer = await toVerificationDto(tx, { ...access, milestone: updated }, ctx.actor, { decidedNow, round });
  await recomputeProjectStatus(tx, project.id);
  const audited: AuditInput = {
    actorId: ctx.actor.id,
    action: event.action,
    entityType: "milestone",
    entityId: updated.id,
    projectId: project.id,
    before: verificationSnapshot(access.milestone),
    after: { ...verificationSnapshot(updated), ...event.after },
  };
  if (certificate) await appendCertifiedApproval(tx, audited, certificate, ctx.actor.id);
  else await appendAudit(tx, audited);
  return answer;
}
