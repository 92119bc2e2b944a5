import type { ServiceContext } from "../../context";
import type { Tx } from "../../db/client";
import type { MilestoneAccess } from "../access";
import { appendAudit } from "../audit/append";
import { notify } from "../notifications/notify";
import { milestoneLink } from "../verification/locked";
import { voidOpenDecisions } from "../verification/void";

/**
 * A decision stands for the evidence it was made on (ADR 037). Evidence added to or removed from a milestone in
 * verification voids the live decisions of its round: the milestone stays in verification in the same round, and
 * those who had decided are told to look again. (A file a decision was made on cannot be removed, so a removal
 * voids only decisions the database would refuse anyway; it is handled alike.) The database holds it too: a release
 * names only decisions made on the milestone's evidence as it stands (migration 0037).
 */
export async function voidDecisionsOnChangedEvidence(
  tx: Tx,
  ctx: ServiceContext,
  access: MilestoneAccess,
  change: { added: string[] } | { removed: string },
): Promise<void> {
  const { milestone, project } = access;
  if (milestone.status !== "in_verification") return;
  const voided = await voidOpenDecisions(tx, [{ id: milestone.id, round: milestone.verificationRound }], "evidence");
  if (voided.length === 0) return;
  await appendAudit(tx, {
    actorId: ctx.actor.id,
    action: "milestone.decisions_voided",
    entityType: "milestone",
    entityId: milestone.id,
    projectId: project.id,
    after: {
      reason: "evidence",
      round: milestone.verificationRound,
      ...change,
      decisions: voided.map((d) => ({ userId: d.userId, kind: d.kind })),
    },
  });
  const what = "added" in change ? `added ${quoteList(change.added)} to` : `removed "${change.removed}" from`;
  await notify(
    tx,
    voided.map((d) => d.userId),
    {
      title: "Evidence changed: decide again",
      message: `${ctx.actor.name} ${what} "${milestone.title}" after you decided: your decision was made on other evidence and no longer counts. Look at the evidence and decide again.`,
      category: "verification",
      link: milestoneLink(milestone.id, "verification"),
      subject: { projectId: project.id, milestoneId: milestone.id },
    },
    ctx.actor.id,
  );
}

function quoteList(names: string[]): string {
  const quoted = names.map((n) => `"${n}"`);
  return quoted.length <= 2 ? quoted.join(" and ") : `${quoted.slice(0, -1).join(", ")} and ${quoted.at(-1)}`;
}
