import { acceptInvitationSchema, createInvitationSchema } from "@tranche/domain";
import { Hono } from "hono";
import { rememberDevice } from "../auth/known-devices";
import { clientIp, requireRole } from "../auth/middleware";
import { requireSecondFactor } from "../auth/require-second-factor";
import { limitByIp } from "../auth/service";
import { setSessionCookie } from "../auth/sessions";
import type { AppEnv } from "../context";
import { parseJson, pathId } from "../lib/validate";
import { acceptInvitation, previewInvitation } from "../services/invitations/accept";
import { createInvitation, resendInvitation, revokeInvitation } from "../services/invitations/invite";
import { listInvitations } from "../services/invitations/list";
import { toUserDto } from "../services/users/dto";

export const invitationLookupSchema = acceptInvitationSchema.pick({ token: true });

export const invitationRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const actor = requireRole(c, "admin");
    const { db, env } = c.get("deps");
    return c.json(await listInvitations({ ctx: { db, env, actor } }));
  })
  // A new link is access (an admin role, project memberships): the same second factor as adding a member.
  .post("/", async (c) => {
    const actor = requireRole(c, "admin");
    await requireSecondFactor(c);
    const input = await parseJson(c, createInvitationSchema);
    const { db, env } = c.get("deps");
    return c.json(await createInvitation({ ctx: { db, env, actor }, input }), 201);
  })
  .post("/:id/resend", async (c) => {
    const actor = requireRole(c, "admin");
    await requireSecondFactor(c);
    const id = pathId(c, "id", "Invitation");
    const { db, env } = c.get("deps");
    return c.json(await resendInvitation({ ctx: { db, env, actor }, id }));
  })
  .delete("/:id", async (c) => {
    const actor = requireRole(c, "admin");
    const id = pathId(c, "id", "Invitation");
    const { db, env } = c.get("deps");
    await revokeInvitation({ ctx: { db, env, actor }, id });
    return c.body(null, 204);
  })
  // The link's token travels in the body, never in a logged URL.
  .post("/lookup", async (c) => {
    const { db, env } = c.get("deps");
    await limitByIp(db, env, "signin", clientIp(c));
    const { token } = await parseJson(c, invitationLookupSchema);
    return c.json(await previewInvitation(db, token));
  })
  .post("/accept", async (c) => {
    const { db, env } = c.get("deps");
    await limitByIp(db, env, "signup", clientIp(c));
    const input = await parseJson(c, acceptInvitationSchema);
    const { token, user } = await acceptInvitation(db, input, {
      ip: clientIp(c),
      userAgent: c.req.header("user-agent"),
    });
    setSessionCookie(c, token, env);
    await rememberDevice(c, user.id);
    return c.json({ user: toUserDto(user) }, 201);
  });
