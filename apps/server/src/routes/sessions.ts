import { createRoute } from "@hono/zod-openapi";
import { itemsOf, sessionSchema, signedOutSchema } from "@tranche/domain";
import { z } from "zod";
import { serviceContext } from "../auth/middleware";
import { clearSessionCookie } from "../auth/sessions";
import { parseWith } from "../lib/validate";
import { ApiRoutes, empty, errors, json, SESSION } from "../openapi/routes";
import { listSessions, revokeOtherSessions, revokeSession } from "../services/sessions/manage";

const tags = ["Security"];
const sessionIdSchema = z.strictObject({
  id: z.string().regex(/^[0-9a-f]{32}$/, { error: "Session id must be 32 hexadecimal characters." }),
});

const list = createRoute({
  method: "get",
  path: "/",
  operationId: "listSessions",
  tags,
  summary: "The caller's signed-in sessions: device, IP, last seen",
  security: SESSION,
  responses: { 200: json(itemsOf(sessionSchema), "The sessions, most recently used first.") },
});

const signOutOthers = createRoute({
  method: "post",
  path: "/sign-out-others",
  operationId: "signOutOtherSessions",
  tags,
  summary: "Sign out every session but this one",
  security: SESSION,
  responses: { 200: json(signedOutSchema, "How many sessions were signed out.") },
});

const signOutOne = createRoute({
  method: "delete",
  path: "/{id}",
  operationId: "signOutSession",
  tags,
  summary: "Sign out one of the caller's sessions (the current one clears the cookie)",
  security: SESSION,
  // Not a uuid: a session id is 32 hexadecimal characters, and another answers 400.
  request: { params: sessionIdSchema },
  responses: { 204: empty("Signed out."), ...errors(400) },
});

export const sessionRoutes = new ApiRoutes()
  .handle(list, async (c) => c.json({ items: await listSessions(serviceContext(c)) }, 200))
  .handle(signOutOthers, async (c) => c.json(await revokeOtherSessions(serviceContext(c)), 200))
  .handleRaw(signOutOne, async (c) => {
    const ctx = serviceContext(c);
    const { id } = parseWith(sessionIdSchema, { id: c.req.param("id") });
    const { current } = await revokeSession(ctx, id);
    if (current) clearSessionCookie(c, ctx.env);
    return c.body(null, 204);
  });
