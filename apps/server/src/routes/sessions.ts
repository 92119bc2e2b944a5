import { Hono } from "hono";
import { z } from "zod";
import { clearSessionCookie } from "../auth/sessions";
import type { AppEnv } from "../context";
import { parseWith } from "../lib/validate";
import { listSessions, revokeOtherSessions, revokeSession } from "../services/sessions/manage";
import { serviceContext } from "./verification";

const sessionIdSchema = z.strictObject({
  id: z.string().regex(/^[0-9a-f]{32}$/, { error: "Session id must be 32 hexadecimal characters." }),
});

/** /api/auth/sessions: the caller's own sessions. */
export const sessionRoutes = new Hono<AppEnv>()
  .get("/", async (c) => c.json({ items: await listSessions(serviceContext(c)) }))
  .post("/sign-out-others", async (c) => c.json(await revokeOtherSessions(serviceContext(c))))
  .delete("/:id", async (c) => {
    const ctx = serviceContext(c);
    const { id } = parseWith(sessionIdSchema, { id: c.req.param("id") });
    const { current } = await revokeSession(ctx, id);
    if (current) clearSessionCookie(c, ctx.env);
    return c.body(null, 204);
  });
