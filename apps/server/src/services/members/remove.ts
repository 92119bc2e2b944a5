import type { MemberRole } from "@tranche/domain";
import { and, eq, sql } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { queryRows } from "../../db/client";
import { projectMembers } from "../../db/schema";
import { conflict, forbidden, notFound } from "../../errors";
import { requireVisibleProject } from "../access";
import { appendAudit } from "../audit/append";
import { notify } from "../notifications/notify";

/** An admin removes a verifier or an investor from a project. */
export async function removeMember(
  ctx: ServiceContext,
  projectId: string,
  userId: string,
  role: Exclude<MemberRole, "owner">,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const access = await requireVisibleProject(tx, ctx.actor, projectId, { lock: true });
    if (!access.isAdmin) throw forbidden("Only an admin can remove verifiers and investors.");
    const membership = and(
      eq(projectMembers.projectId, projectId),
      eq(projectMembers.userId, userId),
      eq(projectMembers.role, role),
    );
    const [member] = await tx.select().from(projectMembers).where(membership);
    if (!member) throw notFound("Member");
    if (role === "verifier") {
      // Work in progress would be orphaned: the verifier must finish or the milestone be reassigned first.
      const [{ n }] = await queryRows<{ n: number }>(
        tx,
        sql`select count(*)::int as n from milestones
            where project_id = ${projectId} and verifier_id = ${userId} and status = 'in_verification'`,
      );
      if (Number(n) > 0) throw conflict("This verifier has a milestone in verification on this project.");
    }
    await tx.delete(projectMembers).where(membership);
    await appendAudit(tx, {
      actorId: ctx.actor.id,
      action: "member.removed",
      entityType: "member",
      entityId: `${projectId}:${userId}:${role}`,
      projectId,
      before: { userId, role },
    });
    await notify(
      tx,
      [userId],
      {
        title: "Removed from a project",
        message: `You are no longer ${role === "verifier" ? "a verifier" : "an investor"} on ${access.project.name}.`,
        category: "account",
        link: "/dashboard",
        subject: { projectId },
      },
      ctx.actor.id,
    );
  });
}
