import type { EvidenceFlagCode, EvidenceFlagDto } from "@tranche/domain";
import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { evidence, evidenceFlags } from "../../db/schema";
import { conflict, forbidden, notFound } from "../../errors";
import { requireVisibleMilestone } from "../access";
import { appendAudit } from "../audit/append";
import { flagsOf } from "../evidence/dto";
import { isEligibleVerifier } from "../verification/access";

/**
 * A verifier of the project (or an admin) sets a flag aside, saying why. The flag stays on the file, marked
 * dismissed with who, when and why, and a re-check does not raise it again; the audit log keeps the reason.
 */
export async function dismissFlag(
  ctx: ServiceContext,
  evidenceId: string,
  code: EvidenceFlagCode,
  reason: string,
): Promise<EvidenceFlagDto> {
  return ctx.db.transaction(async (tx) => {
    const [file] = await tx.select().from(evidence).where(eq(evidence.id, evidenceId));
    if (!file) throw notFound("Evidence");
    const access = await requireVisibleMilestone(tx, ctx.actor, file.milestoneId).catch(() => {
      throw notFound("Evidence");
    });
    if (ctx.actor.role !== "admin" && !isEligibleVerifier(access, ctx.actor)) {
      throw forbidden("Only a verifier of this project can dismiss a flag.");
    }
    const [flag] = await tx
      .select()
      .from(evidenceFlags)
      .where(and(eq(evidenceFlags.evidenceId, evidenceId), eq(evidenceFlags.code, code)))
      .for("update");
    if (!flag) throw notFound("Flag");
    if (flag.dismissedAt) throw conflict("This flag was already dismissed.", { dismissedAt: flag.dismissedAt });
    const now = new Date();
    await tx
      .update(evidenceFlags)
      .set({ dismissedAt: now, dismissedBy: ctx.actor.id, dismissReason: reason })
      .where(eq(evidenceFlags.id, flag.id));
    await appendAudit(tx, {
      actorId: ctx.actor.id,
      action: "evidence.flag_dismissed",
      entityType: "evidence",
      entityId: evidenceId,
      projectId: access.project.id,
      before: { code, severity: flag.severity, message: flag.message },
      after: { code, reason },
    });
    const dismissed = (await flagsOf(tx, [evidenceId], ctx.actor)).get(evidenceId)?.find((f) => f.code === code);
    if (!dismissed) throw notFound("Flag");
    return dismissed;
  });
}
