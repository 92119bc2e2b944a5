import type { ProjectDetailDto } from "@tranche/domain";
import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { projectMembers, users } from "../../db/schema";
import { businessRule, conflict, forbidden, notFound } from "../../errors";
import { memberRoles, requireVisibleProject } from "../access";
import { appendAudit } from "../audit/append";
import { notify } from "../notifications/notify";
import { projectDetail } from "./get";

/**
 * An admin hands a project to another project owner: the new owner replaces the old one(s), audited, and the old
 * and new owners are told. This is how an owner is freed to take another role.
 */
export async function transferOwnership(
  ctx: ServiceContext,
  projectId: string,
  input: { userId: string },
): Promise<ProjectDetailDto> {
  return ctx.db.transaction(async (tx) => {
    const access = await requireVisibleProject(tx, ctx.actor, projectId, { lock: true });
    if (!access.isAdmin) throw forbidden("Only an admin can transfer a project's ownership.");
    const [next] = await tx
      .select({ id: users.id, name: users.name, role: users.role })
      .from(users)
      .where(eq(users.id, input.userId));
    if (!next) throw notFound("User");
    if (next.role !== "project_owner") throw businessRule("Only a user with the project owner role can own a project.");
    const theirRoles = await memberRoles(tx, next.id, projectId);
    if (theirRoles.includes("investor") || theirRoles.includes("verifier")) {
      throw businessRule(`${next.name} is an investor or verifier on this project and cannot also own it.`);
    }
    const owners = await tx
      .select({ id: users.id, name: users.name })
      .from(projectMembers)
      .innerJoin(users, eq(users.id, projectMembers.userId))
      .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.role, "owner")));
    if (owners.length === 1 && owners[0].id === next.id) throw conflict(`${next.name} already owns this project.`);

    await tx
      .delete(projectMembers)
      .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.role, "owner")));
    await tx.insert(projectMembers).values({ projectId, userId: next.id, role: "owner" });
    await appendAudit(tx, {
      actorId: ctx.actor.id,
      action: "project.ownership_transferred",
      entityType: "project",
      entityId: projectId,
      projectId,
      before: { ownerIds: owners.map((o) => o.id) },
      after: { ownerIds: [next.id] },
    });
    const name = access.project.name;
    await notify(
      tx,
      [next.id],
      {
        title: "You now own a project",
        message: `An administrator made you the owner of ${name}.`,
        category: "account",
        link: `/projects/${projectId}`,
        subject: { projectId },
      },
      ctx.actor.id,
    );
    await notify(
      tx,
      owners.map((o) => o.id).filter((id) => id !== next.id),
      {
        title: "Project ownership transferred",
        message: `An administrator transferred ${name} to ${next.name}. You are no longer its owner.`,
        category: "account",
        link: "/dashboard",
        subject: { projectId },
      },
      ctx.actor.id,
    );
    return projectDetail(tx, access);
  });
}
