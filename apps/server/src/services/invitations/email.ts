import { INVITATION_TTL_HOURS, ROLE_LABELS, type Role } from "@tranche/domain";
import type { DbOrTx } from "../../db/client";
import type { Env } from "../../env";
import { queueEmail } from "../email/queue";
import { appUrl, renderEmail } from "../email/template";

/** The invitation email, with its one link (the token travels only in this email). */
export async function queueInvitationEmail(
  tx: DbOrTx,
  env: Env,
  invite: { email: string; role: Role; organization: string | null; token: string; invitedBy: string },
): Promise<void> {
  const role = ROLE_LABELS[invite.role];
  await queueEmail(
    tx,
    invite.email,
    "invitation",
    renderEmail({
      subject: "You are invited to Tranche",
      heading: "You are invited to Tranche",
      paragraphs: [
        `${invite.invitedBy} invited you to join Tranche as ${/^[AEIOU]/.test(role) ? "an" : "a"} ${role}${invite.organization ? ` for ${invite.organization}` : ""}.`,
        "Tranche releases a project's capital milestone by milestone, after an independent verifier has checked each one.",
        `Set your name and password to accept. The link works once and expires in ${INVITATION_TTL_HOURS} hours.`,
      ],
      action: { label: "Accept invitation", url: appUrl(env.PUBLIC_URL, `/invite?token=${invite.token}`) },
      reason: `You receive this email because an administrator of Tranche invited ${invite.email}. If you did not expect it, ignore it: no account is created until the link is used.`,
    }),
  );
}
