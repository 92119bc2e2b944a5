import type { memberSchema, ProjectDetailDto } from "@tranche/domain";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { ServiceContext } from "../../context";
import { projectMembers, users } from "../../db/schema";
import { businessRule, conflict, forbidden, notFound } from "../../errors";
import { memberRoles, requireVisibleProject } from "../access";
import { appendAudit } from "../audit/append";
import { notify } from "../notifications/notify";
import { projectDetail } from "../projects/get";

type Input = z.output<typeof memberSchema>;

/** An admin assigns a verifier or an investor to a project; nobody verifies a project they own or invest in. */
export async function addMember(ctx: ServiceContext, projectId: string, input: Input): Promise<ProjectDetailDto> {
  return ctx.db.transaction(async (tx) => {
    const access = await requireVisibleProject(tx, ctx.actor, projectId, { lock: true });
    if (!access.isAdmin) throw forbidden("Only an admin can assign verifiers and investors.");
    const [user] = await tx
      .select({ id: users.id, name: users.name, role: users.role })
      .from(users)
      .where(eq(users.id, input.userId));
    if (!user) throw notFound("User");
    if (user.role !== input.role) {
      throw businessRule(
        input.role === "verifier"
          ? "Only users with the verifier role can be assigned as verifiers."
          : "Only users with the investor role can be assigned as investors.",
      );
    }
    const theirRoles = await memberRoles(tx, user.id, projectId);
    if (theirRoles.includes(input.role)) {
      throw conflict(
        `${user.name} is already ${input.role === "verifier" ? "a verifier" : "an investor"} on this project.`,
      );
    }
    if (input.role === "verifier" && (theirRoles.includes("owner") || theirRoles.includes("investor"))) {
      throw businessRule("A verifier cannot be assigned to a project they own or invest in.");
    }
    // And the other way: someone who verifies a project (their role since changed) does not also invest in it, or
    // they could countersign what they approved.
    if (input.role === "investor" && theirRoles.includes("verifier")) {
      throw businessRule("An investor cannot be assigned to a project they verify; remove them as its verifier first.");
    }
    await tx.insert(projectMembers).values({ projectId, userId: user.id, role: input.role });
    await appendAudit(tx, {
      actorId: ctx.actor.id,
      action: "member.added",
      entityType: "member",
      entityId: `${projectId}:${user.id}:${input.role}`,
      projectId,
      after: { userId: user.id, role: input.role },
    });
    const name = access.project.name;
    await notify(
      tx,
      [user.id],
      {
        title: "Assigned to a project",
        message: `You have been assigned as ${input.role === "verifier" ? "a verifier" : "an investor"} on ${name}.`,
        category: "account",
        link: `/projects/${projectId}`,
        subject: { projectId },
        // A new assignment for a verifier's field view; an investor's is not field work.
        push: input.role === "verifier" ? { urgency: "low" } : undefined,
      },
      ctx.actor.id,
    );
    return projectDetail(tx, access);
  });
}
