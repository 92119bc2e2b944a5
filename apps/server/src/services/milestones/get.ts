import {
  type Currency,
  EVIDENCE_LOCKED,
  isMilestoneEditable,
  type MilestoneDetailDto,
  type MilestoneStatus,
  milestoneLockReason,
} from "@tranche/domain";
import { eq } from "drizzle-orm";
import type { ServiceContext, SessionUser } from "../../context";
import type { DbOrTx } from "../../db/client";
import { disbursements, milestones } from "../../db/schema";
import { toMoney } from "../../lib/money";
import { type MilestoneView, requireVisibleMilestone } from "../access";
import { loadReleases } from "../releases/dto";
import { hasOpenDispute } from "../verification/resubmit";
import { loadMilestones } from "./dto";

/** Why a milestone with part of its capital released is not deleted: its releases keep it. */
export const RELEASED_KEPT = "Capital was released on this milestone; it is kept with its releases.";

/** Why a rejected milestone under an open dispute is neither edited nor deleted until the dispute is decided. */
export const UNDER_DISPUTE =
  "This rejection is under dispute; the milestone stays as it is until the dispute is decided.";

function lockReasons(
  status: MilestoneStatus,
  released: boolean,
  disputed: boolean,
): { edit?: string; delete?: string } {
  const reason = milestoneLockReason(status) ?? (disputed ? UNDER_DISPUTE : null);
  if (reason) return { edit: reason, delete: reason };
  return released ? { delete: RELEASED_KEPT } : {};
}

/** One milestone the caller may see, with its project's name and capital and what the caller may do. */
export async function getMilestone(ctx: ServiceContext, milestoneId: string): Promise<MilestoneDetailDto> {
  const access = await requireVisibleMilestone(ctx.db, ctx.actor, milestoneId);
  return milestoneDetail(ctx.db, access, ctx.actor);
}

export async function milestoneDetail(
  db: DbOrTx,
  access: MilestoneView,
  actor: SessionUser,
): Promise<MilestoneDetailDto> {
  const actorId = actor.id;
  const { project, roles, isAdmin, isOwner } = access;
  // One after another: inside a transaction these share a single connection.
  const [dto] = await loadMilestones(db, eq(milestones.id, access.milestone.id));
  // Every member who may see the milestone sees its release (the figures on the page depend on it).
  const releases = await loadReleases(db, eq(disbursements.milestoneId, access.milestone.id), {
    kind: "user",
    user: actor,
  });
  const release = releases.at(-1) ?? null;
  const disputed = dto.status === "rejected" && (await hasOpenDispute(db, access.milestone.id));
  const status = dto.status;
  // Separation of duties: a verifier never verifies a project they own or invest in.
  const independentVerifier = roles.includes("verifier") && !roles.includes("owner") && !roles.includes("investor");
  const canVerify =
    independentVerifier &&
    (status === "pending" || status === "delayed" || (status === "in_verification" && dto.verifierId === actorId));
  return {
    ...dto,
    projectName: project.name,
    projectTotalCapital: toMoney(project.totalCapital),
    projectCurrency: project.currency as Currency,
    startedAt: access.milestone.startedAt?.toISOString() ?? null,
    disbursedAt: release?.approvedAt ?? null,
    release,
    releases,
    permissions: {
      canEdit: (isOwner || isAdmin) && isMilestoneEditable(status) && !disputed,
      canDelete: (isOwner || isAdmin) && isMilestoneEditable(status) && !disputed && releases.length === 0,
      canVerify,
      canUpload:
        status !== "verified" &&
        (isOwner || (independentVerifier && (dto.verifierId === null || dto.verifierId === actorId))),
      canResubmit: isOwner && status === "rejected",
      canSetStatus: isOwner,
      reasons: {
        ...(isOwner || isAdmin ? lockReasons(status, releases.length > 0, disputed) : {}),
        ...(status === "verified" && (isOwner || independentVerifier) ? { upload: EVIDENCE_LOCKED } : {}),
      },
    },
  };
}
