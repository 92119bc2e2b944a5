import { ROLE_LABELS, type Role, type UserAdminDto, type updateUserSchema } from "@tranche/domain";
import { and, eq, isNull, or, sql } from "drizzle-orm";
import type { z } from "zod";
import type { ServiceContext } from "../../context";
import type { Tx } from "../../db/client";
import { milestoneDisputes, milestones, projectMembers, projects, users } from "../../db/schema";
import { businessRule, conflict, forbidden, notFound } from "../../errors";
import { naturalOrder } from "../../lib/keyset";
import { appendAudit } from "../audit/append";
import { holdsSecondFactor } from "../mfa/second-factor";
import { notify } from "../notifications/notify";
import { toUserAdminDto } from "./dto";

/**
 * A user who owns projects keeps their role until an admin transfers those projects (Team tab): 409 naming them.
 */
async function refuseWhileOwningProjects(tx: Tx, name: string, userId: string): Promise<void> {
  const owned = await tx
    .select({ id: projects.id, name: projects.name })
    .from(projectMembers)
    .innerJoin(projects, eq(projects.id, projectMembers.projectId))
    .where(and(eq(projectMembers.userId, userId), eq(projectMembers.role, "owner")))
    .orderBy(naturalOrder(projects.name));
  if (owned.length === 0) return;
  const names = owned.map((p) => p.name).join(", ");
  throw conflict(`${name} owns ${owned.length === 1 ? "a project" : "projects"}: ${names}. Transfer ownership first.`, {
    projects: owned,
  });
}

/**
 * A verifier who is verifying a milestone (started it, or decides its dispute) keeps their role until it is decided:
 * under another role nobody could finish the round, and removing them from the project is refused for the same reason.
 */
async function refuseWhileVerifying(tx: Tx, name: string, userId: string): Promise<void> {
  const open = await tx
    .selectDistinct({ id: milestones.id, title: milestones.title, projectName: projects.name })
    .from(milestones)
    .innerJoin(projects, eq(projects.id, milestones.projectId))
    .leftJoin(
      milestoneDisputes,
      and(eq(milestoneDisputes.milestoneId, milestones.id), isNull(milestoneDisputes.closedAt)),
    )
    .where(
      and(
        eq(milestones.status, "in_verification"),
        or(eq(milestones.verifierId, userId), eq(milestoneDisputes.verifierId, userId)),
      ),
    )
    // Plain order: a SELECT DISTINCT may order only by what it selects (a collated name is another expression).
    .orderBy(projects.name, milestones.title);
  if (open.length === 0) return;
  const names = open.map((m) => `"${m.title}" (${m.projectName})`).join(", ");
  throw conflict(`${name} is verifying ${names}. It must be decided first.`, { milestones: open });
}

/**
 * An admin changes a user's role, and/or sets the organization release rules compare for them. Each change is
 * audited and the user is told (category `account`).
 */
export async function changeUserRole({
  ctx,
  userId,
  input,
}: {
  ctx: ServiceContext;
  userId: string;
  input: z.output<typeof updateUserSchema>;
}): Promise<UserAdminDto> {
  if (ctx.actor.role !== "admin") throw forbidden("Only an admin can change roles.");
  // An admin demoting themself could leave nobody able to manage users.
  if (userId === ctx.actor.id && input.role !== undefined && input.role !== "admin") {
    throw businessRule("You cannot change your own admin role.");
  }
  return ctx.db.transaction(async (tx) => {
    // Who may decide on a project changes with a member's role: like a membership change, it takes the rows of the
    // projects they belong to (in one order), so a decision on one of them under way finishes first, and one that
    // follows reads the new role (services/access.ts). The user's row after, and without blocking the key-share
    // locks a decision's own rows take on it.
    await tx.execute(
      sql`select 1 from ${projects} where ${projects.id} in (
            select ${projectMembers.projectId} from ${projectMembers} where ${projectMembers.userId} = ${userId})
          order by ${projects.id} for update`,
    );
    const [current] = await tx.select().from(users).where(eq(users.id, userId)).for("no key update");
    if (!current) throw notFound("User");
    let row = current;
    if (input.role !== undefined && current.role !== input.role) {
      const role = input.role;
      await refuseWhileOwningProjects(tx, current.name, userId);
      if (current.role === "verifier") await refuseWhileVerifying(tx, current.name, userId);
      [row] = await tx.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, userId)).returning();
      await appendAudit(tx, {
        actorId: ctx.actor.id,
        action: "user.role_changed",
        entityType: "user",
        entityId: userId,
        before: { role: current.role },
        after: { role },
      });
      await notify(
        tx,
        [userId],
        {
          title: "Your role has changed",
          message: `An administrator changed your role from ${ROLE_LABELS[current.role as Role]} to ${ROLE_LABELS[role]}.`,
          category: "account",
          link: "/dashboard",
        },
        ctx.actor.id,
      );
    }
    if (input.verifiedOrganization !== undefined && input.verifiedOrganization !== row.verifiedOrganization) {
      const organization = input.verifiedOrganization;
      const now = new Date();
      [row] = await tx
        .update(users)
        .set({
          verifiedOrganization: organization,
          organizationVerifiedAt: organization === null ? null : now,
          organizationVerifiedBy: organization === null ? null : ctx.actor.id,
          updatedAt: now,
        })
        .where(eq(users.id, userId))
        .returning();
      await appendAudit(tx, {
        actorId: ctx.actor.id,
        action: "user.organization_verified",
        entityType: "user",
        entityId: userId,
        before: { verifiedOrganization: current.verifiedOrganization },
        after: { verifiedOrganization: organization },
      });
      await notify(
        tx,
        [userId],
        {
          title: "Your organization was verified",
          message:
            organization === null
              ? "An administrator removed your verified organization."
              : `An administrator verified your organization as ${organization}.`,
          category: "account",
          link: "/account",
        },
        ctx.actor.id,
      );
    }
    const [{ hasSecondFactor }] = await tx
      .select({ hasSecondFactor: holdsSecondFactor(userId) })
      .from(users)
      .where(eq(users.id, userId));
    return toUserAdminDto(row, hasSecondFactor);
  });
}
