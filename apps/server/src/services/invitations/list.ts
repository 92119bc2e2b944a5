import type { InvitationDto, Role } from "@tranche/domain";
import { and, desc, inArray, isNull } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import type { DbOrTx } from "../../db/client";
import { invitations, projects, users } from "../../db/schema";
import { forbidden } from "../../errors";

type InvitationRow = typeof invitations.$inferSelect;

async function toDtos(db: DbOrTx, rows: InvitationRow[]): Promise<InvitationDto[]> {
  const projectIds = [...new Set(rows.flatMap((row) => row.projectIds))];
  const inviterIds = [...new Set(rows.map((row) => row.invitedBy).filter((id): id is string => !!id))];
  const names = new Map(
    projectIds.length
      ? (
          await db
            .select({ id: projects.id, name: projects.name })
            .from(projects)
            .where(inArray(projects.id, projectIds))
        ).map((p) => [p.id, p.name])
      : [],
  );
  const inviters = new Map(
    inviterIds.length
      ? (
          await db
            .select({ id: users.id, name: users.name, role: users.role })
            .from(users)
            .where(inArray(users.id, inviterIds))
        ).map((u) => [u.id, u])
      : [],
  );
  const now = Date.now();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    role: row.role as Role,
    organization: row.organization,
    projects: row.projectIds.flatMap((id) => {
      const name = names.get(id);
      return name ? [{ id, name }] : [];
    }),
    invitedBy: row.invitedBy ? (inviters.get(row.invitedBy)?.name ?? null) : null,
    sentAt: row.sentAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    // As the link itself answers (accept.ts): it works only while whoever sent it is an admin.
    status:
      row.expiresAt.getTime() <= now
        ? "expired"
        : inviters.get(row.invitedBy ?? "")?.role === "admin"
          ? "pending"
          : "inviter_inactive",
  }));
}

export async function toInvitationDto(db: DbOrTx, row: InvitationRow): Promise<InvitationDto> {
  const [dto] = await toDtos(db, [row]);
  return dto;
}

/** Invitations not yet accepted or revoked, newest first (admins). */
export async function listInvitations({ ctx }: { ctx: ServiceContext }): Promise<InvitationDto[]> {
  if (ctx.actor.role !== "admin") throw forbidden("Only an admin can invite people.");
  const rows = await ctx.db
    .select()
    .from(invitations)
    .where(and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
    .orderBy(desc(invitations.sentAt))
    .limit(500);
  return toDtos(ctx.db, rows);
}
