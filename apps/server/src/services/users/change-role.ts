import { ROLE_LABELS, type Role, type UserAdminDto, type updateUserSchema } from "@tranche/domain";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { ServiceContext } from "../../context";
import { users } from "../../db/schema";
import { businessRule, forbidden, notFound } from "../../errors";
import { appendAudit } from "../audit/append";
import { notify } from "../notifications/notify";

/** An admin changes a user's role: audited, and the user is told (category `account`). */
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
  if (userId === ctx.actor.id && input.role !== "admin") {
    throw businessRule("You cannot change your own admin role.");
  }
  return ctx.db.transaction(async (tx) => {
    const [current] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
    if (!current) throw notFound("User");
    let row = current;
    if (current.role !== input.role) {
      [row] = await tx
        .update(users)
        .set({ role: input.role, updatedAt: new Date() })
        .where(eq(users.id, userId))
        .returning();
      await appendAudit(tx, {
        actorId: ctx.actor.id,
        action: "user.role_changed",
        entityType: "user",
        entityId: userId,
        before: { role: current.role },
        after: { role: input.role },
      });
      await notify(
        tx,
        [userId],
        {
          title: "Your role has changed",
          message: `An administrator changed your role from ${ROLE_LABELS[current.role as Role]} to ${ROLE_LABELS[input.role]}.`,
          category: "account",
          link: "/dashboard",
        },
        ctx.actor.id,
      );
    }
    return {
      id: row.id,
      name: row.name,
      email: row.email,
      role: row.role as Role,
      organization: row.organization,
      avatar: row.avatarUrl,
      createdAt: row.createdAt.toISOString(),
    };
  });
}
