import type { ReleasePolicyDto, releasePolicySchema } from "@tranche/domain";
import { policyStatement, unreachableApprovals } from "@tranche/domain";
import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import type { ServiceContext } from "../../context";
import type { Tx } from "../../db/client";
import { milestones, releasePolicies } from "../../db/schema";
import { businessRule, forbidden } from "../../errors";
import { moneyParam } from "../../lib/money";
import { memberIds, requireVisibleProject } from "../access";
import { appendAudit } from "../audit/append";
import { notify } from "../notifications/notify";
import { voidOpenDecisions } from "../verification/void";
import { isLeadInvestor, releasePolicyDto, verifierCount } from "./get";
import { currentRule } from "./rule";

type Input = z.output<typeof releasePolicySchema>;

/**
 * A new rule judges every decision from now on: the decisions already made in rounds still open (milestones in
 * verification) are void, and their verifiers decide again under it. Nothing is released by a policy change, and no
 * round is left judged by a rule it was not decided under (a countersignature no longer asked for, a quorum met by a
 * lower count with no release). An approval in flight as the rule changes, committed just after, is not counted
 * either (its policy version is not the rule's: verification/quorum.ts). Resolves to the milestones voided.
 */
async function voidOpenRounds(tx: Tx, projectId: string): Promise<string[]> {
  const open = await tx
    .select({ id: milestones.id, round: milestones.verificationRound })
    .from(milestones)
    .where(and(eq(milestones.projectId, projectId), eq(milestones.status, "in_verification")))
    .orderBy(milestones.id);
  const voided = await voidOpenDecisions(tx, open, "policy");
  return [...new Set(voided.map((d) => d.milestoneId))];
}

/**
 * Writes the next policy version (earlier versions are kept: each release names the version that applied).
 * The project row is locked so two editors never write the same version number.
 */
export function setReleasePolicy(ctx: ServiceContext, projectId: string, input: Input): Promise<ReleasePolicyDto> {
  return ctx.db.transaction(async (tx) => {
    const access = await requireVisibleProject(tx, ctx.actor, projectId, { lock: true });
    if (!access.isAdmin && !(await isLeadInvestor(tx, projectId, ctx.actor.id))) {
      throw forbidden("Only an admin or the project's lead investor can change its release policy.");
    }
    // A rule no milestone could meet is refused, not saved with a warning: approvals come from assigned verifiers.
    const assigned = await verifierCount(tx, projectId);
    const unreachable = unreachableApprovals(input, assigned);
    if (unreachable) throw businessRule(unreachable.message, { [unreachable.field]: unreachable.message });
    const before = await currentRule(tx, projectId);
    const reopened = await voidOpenRounds(tx, projectId);
    const version = before.version + 1;
    const thresholds = [...input.thresholds].sort((a, b) => a.minAmount - b.minAmount);
    await tx.insert(releasePolicies).values({
      projectId,
      version,
      requiredApprovals: input.requiredApprovals,
      thresholds,
      distinctOrganizations: input.distinctOrganizations,
      cosignAbove: input.cosignAbove === null ? null : moneyParam(input.cosignAbove),
      createdBy: ctx.actor.id,
    });
    const after = { version, ...input, thresholds };
    await appendAudit(tx, {
      actorId: ctx.actor.id,
      action: "project.release_policy_changed",
      entityType: "project",
      entityId: projectId,
      projectId,
      before,
      after: reopened.length > 0 ? { ...after, decisionsVoided: reopened } : after,
    });
    const { project } = access;
    const statement = policyStatement(after, assigned, project.currency);
    const asked = reopened.length
      ? ` Decisions already made on ${reopened.length === 1 ? "1 milestone" : `${reopened.length} milestones`} in verification are void: they are decided again under it.`
      : "";
    await notify(
      tx,
      await memberIds(tx, projectId, ["owner", "investor", "verifier"]),
      {
        title: "Release policy changed",
        message: `${ctx.actor.name} set the release policy of ${project.name} (version ${version}): ${statement}.${asked}`,
        category: "milestone",
        link: `/projects/${projectId}`,
        subject: { projectId },
      },
      ctx.actor.id,
    );
    return releasePolicyDto(tx, access, ctx.actor.id);
  });
}
