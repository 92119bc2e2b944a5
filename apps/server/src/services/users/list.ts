import type { Role, UserAdminDto } from "@tranche/domain";
import { asc } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { users } from "../../db/schema";
import { forbidden } from "../../errors";

/** Every user with their role, for the admin's user management screen. */
export async function listUsers({ ctx }: { ctx: ServiceContext }): Promise<{ items: UserAdminDto[] }> {
  if (ctx.actor.role !== "admin") throw forbidden("Only an admin can manage users.");
  const rows = await ctx.db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      role: users.role,
      organization: users.organization,
      avatarUrl: users.avatarUrl,
      createdAt: users.createdAt,
    })
    .from(users)
    .orderBy(asc(users.name), asc(users.email));
  return {
    items: rows.map((u) => ({
      id: u.id,
      name: u.name,
      email: u.email,
      role: u.role as Role,
      organization: u.organization,
      avatar: u.avatarUrl,
      createdAt: u.createdAt.toISOString(),
    })),
  };
}
