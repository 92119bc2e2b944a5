import type { VerificationDto } from "@tranche/domain";
import type { ServiceContext } from "../../context";
import type { Tx } from "../../db/client";
import { type MilestoneAccess, membersIn, milestoneVerifiers } from "../access";
import { transitionMilestone } from "../milestones/transition";
import { requireOwner, requireStatus } from "./access";
import { recordTransition, withLockedMilestone } from "./locked";
import { requireNoOpenDispute } from "./resubmit";

/** The owner marks a pending or rejected milestone as delayed; a verifier later resumes it. */
export function delayMilestone(ctx: ServiceContext, milestoneId: string): Promise<VerificationDto> {
  return withLockedMilestone(ctx, milestoneId, (tx, access) => delayLocked(tx, ctx, access));
}

/** pending|rejected → delayed inside a transaction that holds the milestone's lock (its endpoint, or an edit). */
export async function delayLocked(tx: Tx, ctx: ServiceContext, access: MilestoneAccess): Promise<VerificationDto> {
  requireOwner(access);
  const from = requireStatus(access, ["pending", "rejected"], "delayed");
  // A rejected milestone resumes from delayed without a resubmission: its rejected round ends here.
  if (from === "rejected") await requireNoOpenDispute(tx, access, "delayed");
  const updated = await transitionMilestone(tx, access.milestone, "delay");
  return recordTransition(
    tx,
    ctx,
    access,
    updated,
    { action: "milestone.delayed" },
    {
      recipients: [...membersIn(access, ["investor"]), ...milestoneVerifiers(access, updated.verifierId)],
      title: "Milestone delayed",
      message: `"${updated.title}" (${access.project.name}) was marked as delayed.`,
      category: "milestone",
    },
  );
}

/** The owner takes a delayed milestone back to pending (the edit form's status field; there is no endpoint). */
export async function undelayLocked(tx: Tx, ctx: ServiceContext, access: MilestoneAccess): Promise<VerificationDto> {
  requireOwner(access);
  requireStatus(access, ["delayed"], "set back to pending");
  const updated = await transitionMilestone(tx, access.milestone, "undelay");
  return recordTransition(
    tx,
    ctx,
    access,
    updated,
    { action: "milestone.undelayed" },
    {
      recipients: [...membersIn(access, ["investor"]), ...milestoneVerifiers(access, updated.verifierId)],
      title: "Milestone status changed",
      message: `"${updated.title}" (${access.project.name}) is pending again.`,
      category: "milestone",
    },
  );
}
