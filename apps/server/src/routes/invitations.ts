import { createRoute } from "@hono/zod-openapi";
import {
  acceptInvitationSchema,
  createInvitationSchema,
  invitationLookupSchema,
  invitationPreviewSchema,
  invitationSchema,
  signedInSchema,
} from "@tranche/domain";
import { z } from "zod";
import { rememberDevice } from "../auth/known-devices";
import { clientIp, requireRole } from "../auth/middleware";
import { requireSecondFactor } from "../auth/require-second-factor";
import { limitByIp } from "../auth/service";
import { deleteSession, setSessionCookie } from "../auth/sessions";
import { ApiRoutes, body, empty, errors, idParams, json, jsonBody, PUBLIC, param, SESSION } from "../openapi/routes";
import { acceptInvitation, previewInvitation } from "../services/invitations/accept";
import { createInvitation, resendInvitation, revokeInvitation } from "../services/invitations/invite";
import { listInvitations } from "../services/invitations/list";
import { toUserDto } from "../services/users/dto";

const tags = ["Users"];
const ID = "0b9e4c2a-5d7f-4e1b-9a3c-6f8d2e4b7a10";
const TOKEN = "q8m3V0c2Xy7RkLp4Tn9sWb1Hd6Jf5Ge0Ua2Zi8Oe3Yr";
const params = idParams;

const list = createRoute({
  method: "get",
  path: "/",
  operationId: "listInvitations",
  tags,
  summary: "Pending invitations (admins)",
  security: SESSION,
  responses: { 200: json(z.array(invitationSchema), "Invitations not yet accepted or revoked.") },
});

const create = createRoute({
  method: "post",
  path: "/",
  operationId: "createInvitation",
  tags,
  summary: "Invite a person by email with a role, organization and projects (admins, second factor)",
  security: SESSION,
  request: {
    body: jsonBody(createInvitationSchema, {
      email: "dana@fund.example",
      role: "investor",
      organization: "North Fund",
      projectIds: [ID],
    }),
  },
  responses: {
    201: json(invitationSchema, "The invitation; its email (a link valid 72 hours) is on its way."),
    ...errors(422),
  },
});

const resend = createRoute({
  method: "post",
  path: "/{id}/resend",
  operationId: "resendInvitation",
  tags,
  summary: "Send a pending invitation again with a new link (admins, second factor)",
  security: SESSION,
  request: { params },
  responses: { 200: json(invitationSchema, "The invitation; the old link no longer works.") },
});

const revoke = createRoute({
  method: "delete",
  path: "/{id}",
  operationId: "revokeInvitation",
  tags,
  summary: "Withdraw a pending invitation (admins)",
  security: SESSION,
  request: { params },
  responses: { 204: empty("Revoked; the link no longer works.") },
});

const lookup = createRoute({
  method: "post",
  path: "/lookup",
  operationId: "lookupInvitation",
  tags,
  summary: "What an invitation link offers (email, role), before accepting",
  security: PUBLIC,
  request: { body: jsonBody(invitationLookupSchema, { token: TOKEN }) },
  responses: { 200: json(invitationPreviewSchema, "The invitation's address and role."), ...errors(404, 410, 429) },
});

const accept = createRoute({
  method: "post",
  path: "/accept",
  operationId: "acceptInvitation",
  tags,
  summary: "Accept an invitation: set name and password, then be signed in with the invited role",
  security: PUBLIC,
  request: {
    body: jsonBody(acceptInvitationSchema, { token: TOKEN, name: "Dana Lee", password: "a-long-passphrase-9" }),
  },
  responses: {
    201: json(signedInSchema, "The new user; the session cookie is set."),
    ...errors(404, 410, 422, 429),
  },
});

export const invitationRoutes = new ApiRoutes()
  .handle(list, async (c) => {
    const actor = requireRole(c, "admin");
    const { db, env } = c.get("deps");
    return c.json(await listInvitations({ ctx: { db, env, actor } }), 200);
  })
  // A new link is access (an admin role, project memberships): the same second factor as adding a member.
  .handle(create, async (c) => {
    const actor = requireRole(c, "admin");
    await requireSecondFactor(c);
    const input = await body(c, create);
    const { db, env } = c.get("deps");
    return c.json(await createInvitation({ ctx: { db, env, actor }, input }), 201);
  })
  .handle(resend, async (c) => {
    const actor = requireRole(c, "admin");
    await requireSecondFactor(c);
    const id = param(c, "id", "Invitation");
    const { db, env } = c.get("deps");
    return c.json(await resendInvitation({ ctx: { db, env, actor }, id }), 200);
  })
  .handleRaw(revoke, async (c) => {
    const actor = requireRole(c, "admin");
    const id = param(c, "id", "Invitation");
    const { db, env } = c.get("deps");
    await revokeInvitation({ ctx: { db, env, actor }, id });
    return c.body(null, 204);
  })
  // The link's token travels in the body, never in a logged URL.
  .handle(lookup, async (c) => {
    const { db, env } = c.get("deps");
    await limitByIp(db, env, "signin", clientIp(c));
    const { token } = await body(c, lookup);
    return c.json(await previewInvitation(db, token), 200);
  })
  .handle(accept, async (c) => {
    const { db, env } = c.get("deps");
    await limitByIp(db, env, "signup", clientIp(c));
    const input = await body(c, accept);
    const { token, user } = await acceptInvitation(db, input, {
      ip: clientIp(c),
      userAgent: c.req.header("user-agent"),
    });
    // As a sign-in does: the session this browser held (another account's) ends, rather than stay open unseen.
    const current = c.get("user");
    if (current) await deleteSession(db, current.sessionId);
    setSessionCookie(c, token, env);
    await rememberDevice(c, user.id);
    return c.json({ user: toUserDto(user) }, 201);
  });
