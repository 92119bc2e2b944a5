import type { ProjectDetailDto } from "@tranche/domain";
import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { projectMembers, users } from "../../db/schema";
import { businessRule, forbidden } from "../../errors";
import { requireVisibleProject } from "../access";
import { appendAudit } from "../audit/append";
import { notify } from "../notifications/notify";
import { projectDetail } from "../projects/get";

/** An admin names the project's lead investor (one at a time), who may then set its release policy. */
export function setLeadInvestor(ctx: ServiceContext, projectId: string, userId: string): Promise<ProjectDetailDto> {
  return ctx.db.transaction(async (tx) => {
    const access = await requireVisibleProject(tx, ctx.actor, projectId, { lock: true });
    if (!access.isAdmin) throw forbidden("Only an admin can name a project's lead investor.");
    const investorRow = and(
      eq(projectMembers.projectId, projectId),
      eq(projectMembers.role, "investor"),
      eq(projectMembers.userId, userId),
    );
    const [member] = await tx
      .select({ isLead: projectMembers.isLead, name: users.name })
      .from(projectMembers)
      .innerJoin(users, eq(users.id, projectMembers.userId))
      .where(investorRow);
    if (!member) throw businessRule("Only an investor on this project can be its lead investor.");
    if (!member.isLead) {
      const [previous] = await tx
        .update(projectMembers)
        .set({ isLead: false })
        .where(
          and(
            eq(projectMembers.projectId, projectId),
            eq(projectMembers.role, "investor"),
            eq(projectMembers.isLead, true),
          ),
        )
        .returning({ userId: projectMembers.userId });
      await tx.update(projectMembers).set({ isLead: true }).where(investorRow);
      await appendAudit(tx, {
        actorId: ctx.actor.id,
        action: "member.lead_investor_set",
        entityType: "project",
        entityId: projectId,
        projectId,
        before: { leadInvestorId: previous?.userId ?? null },
        after: { leadInvestorId: userId },
      });
      await notify(
        tx,
        [userId],
        {
          title: "Lead investor",
          message: `You are now the lead investor of ${access.project.name}: you may set its release policy.`,
          category: "account",
          link: `/projects/${projectId}`,
          subject: { projectId },
        },
        ctx.actor.id,
      );
    }
    return projectDetail(tx, access);
  });
}
