import {
  type CreateInvitationInput,
  INVITATION_TTL_HOURS,
  type InvitationDto,
  type MemberRole,
  type Role,
} from "@tranche/domain";
import { and, eq, inArray, isNull } from "drizzle-orm";
import { newLinkToken } from "../../auth/one-time-token";
import type { ServiceContext } from "../../context";
import type { Tx } from "../../db/client";
import { invitations, projects, users } from "../../db/schema";
import { AppError, conflict, forbidden, notFound } from "../../errors";
import { appendAudit } from "../audit/append";
import { queueInvitationEmail } from "./email";
import { toInvitationDto } from "./list";

const expiresFromNow = () => new Date(Date.now() + INVITATION_TTL_HOURS * 3_600_000);

/** The project membership an invited role receives; admins see every project and get none. */
export const MEMBERSHIP_OF: Record<Role, MemberRole | null> = {
  investor: "investor",
  verifier: "verifier",
  project_owner: "owner",
  admin: null,
};

const isOpen = (id: string) =>
  and(eq(invitations.id, id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt));

/** Audits a new link, emails it, and answers with the invitation. */
async function sendLink(
  tx: Tx,
  ctx: ServiceContext,
  row: typeof invitations.$inferSelect,
  link: { token: string; action: "invitation.created" | "invitation.resent"; after: Record<string, unknown> },
): Promise<InvitationDto> {
  await appendAudit(tx, {
    actorId: ctx.actor.id,
    action: link.action,
    entityType: "invitation",
    entityId: row.id,
    after: link.after,
  });
  await queueInvitationEmail(tx, ctx.env, {
    email: row.email,
    role: row.role as Role,
    organization: row.organization,
    token: link.token,
    invitedBy: ctx.actor.name,
  });
  return toInvitationDto(tx, row);
}

/** An admin invites a person by email with a role (and optionally an organization and projects). */
export async function createInvitation({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: CreateInvitationInput;
}): Promise<InvitationDto> {
  if (ctx.actor.role !== "admin") throw forbidden("Only an admin can invite people.");
  if (input.role === "admin" && input.projectIds.length > 0) {
    throw new AppError("invalid_input", "projectIds: Admins see every project; choose no projects.", {
      projectIds: "Admins see every project; choose no projects.",
    });
  }
  const { token, hash } = newLinkToken();
  return ctx.db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, input.email));
    if (existing) {
      throw conflict("An account with this email already exists.", {
        email: "An account with this email already exists.",
      });
    }
    const [open] = await tx
      .select({ id: invitations.id, expiresAt: invitations.expiresAt })
      .from(invitations)
      .where(and(eq(invitations.email, input.email), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
      .for("update");
    if (open && open.expiresAt > new Date()) {
      throw conflict("This email already has a pending invitation: resend or revoke it.", {
        email: "This email already has a pending invitation: resend or revoke it.",
      });
    }
    // An expired invitation to the same address is replaced by the new one.
    if (open) await tx.update(invitations).set({ revokedAt: new Date() }).where(eq(invitations.id, open.id));
    const projectIds = [...new Set(input.projectIds)];
    if (projectIds.length > 0) {
      const found = await tx.select({ id: projects.id }).from(projects).where(inArray(projects.id, projectIds));
      if (found.length !== projectIds.length) {
        throw new AppError("invalid_input", "projectIds: One of the chosen projects no longer exists.", {
          projectIds: "One of the chosen projects no longer exists.",
        });
      }
    }
    const [row] = await tx
      .insert(invitations)
      .values({
        email: input.email,
        role: input.role,
        organization: input.organization ?? null,
        projectIds,
        tokenHash: hash,
        invitedBy: ctx.actor.id,
        expiresAt: expiresFromNow(),
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw conflict("This email already has a pending invitation: resend or revoke it.");
    return sendLink(tx, ctx, row, {
      token,
      action: "invitation.created",
      after: { email: row.email, role: row.role, organization: row.organization, projectIds },
    });
  });
}

/**
 * A new link (the old one stops working) and 72 more hours, sent again, now in the name of the admin who resends it
 * (the email says so): the link works while they are an admin.
 */
export async function resendInvitation({ ctx, id }: { ctx: ServiceContext; id: string }): Promise<InvitationDto> {
  if (ctx.actor.role !== "admin") throw forbidden("Only an admin can invite people.");
  const { token, hash } = newLinkToken();
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(invitations)
      .set({ tokenHash: hash, sentAt: new Date(), expiresAt: expiresFromNow(), invitedBy: ctx.actor.id })
      .where(isOpen(id))
      .returning();
    if (!row) throw notFound("Invitation");
    return sendLink(tx, ctx, row, {
      token,
      action: "invitation.resent",
      after: { email: row.email, expiresAt: row.expiresAt.toISOString() },
    });
  });
}

/** The link stops working at once. */
export async function revokeInvitation({ ctx, id }: { ctx: ServiceContext; id: string }): Promise<void> {
  if (ctx.actor.role !== "admin") throw forbidden("Only an admin can invite people.");
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(invitations)
      .set({ revokedAt: new Date() })
      .where(isOpen(id))
      .returning({ id: invitations.id, email: invitations.email });
    if (!row) throw notFound("Invitation");
    await appendAudit(tx, {
      actorId: ctx.actor.id,
      action: "invitation.revoked",
      entityType: "invitation",
      entityId: row.id,
      before: { email: row.email },
    });
  });
}
