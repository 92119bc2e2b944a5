import { PROJECT_DELETE_LOCKED, PROJECT_DELETE_VERIFYING } from "@tranche/domain";
import { eq, sql } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { queryRows } from "../../db/client";
import { projects } from "../../db/schema";
import { conflict, forbidden } from "../../errors";
import { requireVisibleProject } from "../access";
import { appendAudit } from "../audit/append";

/** The owner or an admin deletes a project, only while nothing on it has been verified or released. */
export async function deleteProject(ctx: ServiceContext, projectId: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const access = await requireVisibleProject(tx, ctx.actor, projectId, { lock: true });
    if (!access.isOwner && !access.isAdmin) throw forbidden("Only the project's owner or an admin can delete it.");
    const [{ verified, released, verifying }] = await queryRows<{
      verified: number;
      released: number;
      verifying: number;
    }>(
      tx,
      sql`select
            (select count(*)::int from milestones where project_id = ${projectId} and status = 'verified') as verified,
            (select count(*)::int from disbursements where project_id = ${projectId}) as released,
            (select count(*)::int from milestones
              where project_id = ${projectId} and status = 'in_verification') as verifying`,
    );
    if (Number(verified) > 0 || Number(released) > 0) {
      throw conflict(PROJECT_DELETE_LOCKED);
    }
    // As a milestone in verification cannot be deleted, nor can its project: a verifier is at work on it, and an
    // approval in flight holds the milestone's row, which deleting the project would wait for.
    if (Number(verifying) > 0) throw conflict(PROJECT_DELETE_VERIFYING);
    const { project } = access;
    await tx.delete(projects).where(eq(projects.id, projectId));
    await appendAudit(tx, {
      actorId: ctx.actor.id,
      action: "project.deleted",
      entityType: "project",
      entityId: projectId,
      projectId,
      before: {
        name: project.name,
        totalCapital: project.totalCapital,
        currency: project.currency,
        status: project.status,
      },
    });
  });
}
