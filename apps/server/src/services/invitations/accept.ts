import type { AcceptInvitationInput, InvitationPreviewDto, Role } from "@tranche/domain";
import { and, eq, gt, inArray, isNull } from "drizzle-orm";
import { hashLinkToken } from "../../auth/one-time-token";
import { hashPassword, passwordWeaknesses } from "../../auth/password";
import { createSession } from "../../auth/sessions";
import type { SessionUser } from "../../context";
import type { Db, DbOrTx } from "../../db/client";
import { invitations, projectMembers, projects, users } from "../../db/schema";
import { AppError, conflict } from "../../errors";
import { appendAudit } from "../audit/append";
import { notify } from "../notifications/notify";
import { MEMBERSHIP_OF } from "./invite";

const INVALID = "This invitation link is not valid. Ask an administrator to send a new one.";
const USED = "This invitation has already been used or was withdrawn. Ask an administrator to send a new one.";
const EXPIRED = "This invitation has expired. Ask an administrator to send a new one.";
const INVITER_GONE =
  "This invitation was sent by someone who is no longer an administrator. Ask an administrator to send a new one.";

/**
 * The invitation behind a link, refused with the reason it no longer works. Like an API token, a link grants access
 * (a role, project memberships) only while the admin who sent it is still an admin: a demoted admin's pending
 * invitations do not outlive their role.
 */
async function usableInvitation(db: DbOrTx, token: string, lock = false) {
  const query = db
    .select({ invitation: invitations, inviterRole: users.role })
    .from(invitations)
    .leftJoin(users, eq(users.id, invitations.invitedBy))
    .where(eq(invitations.tokenHash, hashLinkToken(token)));
  const [found] = lock ? await query.for("update", { of: invitations }) : await query;
  if (!found) throw new AppError("not_found", INVALID);
  const row = found.invitation;
  if (row.acceptedAt || row.revokedAt) throw new AppError("gone", USED);
  if (row.expiresAt.getTime() <= Date.now()) throw new AppError("gone", EXPIRED);
  if (found.inviterRole !== "admin") throw new AppError("gone", INVITER_GONE);
  return row;
}

/** Whether an invitation to `email` could still be accepted (open, unexpired, its sender still an admin). */
export async function hasUsableInvitation(db: DbOrTx, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: invitations.id })
    .from(invitations)
    .innerJoin(users, eq(users.id, invitations.invitedBy))
    .where(
      and(
        eq(invitations.email, email),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
        gt(invitations.expiresAt, new Date()),
        eq(users.role, "admin"),
      ),
    );
  return row !== undefined;
}

export async function previewInvitation(db: Db, token: string): Promise<InvitationPreviewDto> {
  const row = await usableInvitation(db, token);
  return {
    email: row.email,
    role: row.role as Role,
    organization: row.organization,
    expiresAt: row.expiresAt.toISOString(),
  };
}

/** Creates the account with the invited role and memberships, uses the link up, and opens a session. */
export async function acceptInvitation(
  db: Db,
  input: AcceptInvitationInput,
  meta: { ip: string; userAgent?: string | null },
): Promise<{ token: string; user: Omit<SessionUser, "sessionId" | "mfaVerifiedAt"> }> {
  const preview = await usableInvitation(db, input.token);
  const reasons = passwordWeaknesses(input.password, [preview.email, input.name]);
  if (reasons.length) throw new AppError("weak_password", "Password is too weak.", { reasons });
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const invite = await usableInvitation(tx, input.token, true);
    const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.email, invite.email));
    if (taken) throw conflict("An account with this email already exists. Sign in instead.");
    const role = invite.role as Role;
    const [user] = await tx
      .insert(users)
      // The invitation link came to this address: using it confirms the address.
      .values({
        email: invite.email,
        name: input.name,
        passwordHash,
        role,
        organization: invite.organization,
        emailVerifiedAt: new Date(),
      })
      .returning();
    const membership = MEMBERSHIP_OF[role];
    const stillThere = invite.projectIds.length
      ? await tx.select({ id: projects.id }).from(projects).where(inArray(projects.id, invite.projectIds))
      : [];
    if (membership && stillThere.length) {
      await tx
        .insert(projectMembers)
        .values(stillThere.map((p) => ({ projectId: p.id, userId: user.id, role: membership })))
        .onConflictDoNothing();
    }
    await tx
      .update(invitations)
      .set({ acceptedAt: new Date(), acceptedUserId: user.id })
      .where(eq(invitations.id, invite.id));
    await appendAudit(tx, {
      actorId: user.id,
      action: "invitation.accepted",
      entityType: "invitation",
      entityId: invite.id,
      after: { userId: user.id, email: user.email, role, projectIds: stillThere.map((p) => p.id) },
    });
    await notify(tx, [user.id], {
      title: "Welcome to Tranche",
      message: `Welcome, ${input.name}. Your account is ready.`,
      category: "welcome",
      link: "/dashboard",
    });
    if (invite.invitedBy) {
      await notify(tx, [invite.invitedBy], {
        title: "Invitation accepted",
        message: `${input.name} (${user.email}) accepted your invitation.`,
        category: "account",
        link: "/users",
      });
    }
    const { token } = await createSession(tx, user.id, meta);
    return {
      token,
      user: {
        id: user.id,
        name: user.name,
        email: user.email,
        role,
        organization: user.organization,
        avatarUrl: user.avatarUrl,
        emailVerifiedAt: user.emailVerifiedAt,
      },
    };
  });
}
