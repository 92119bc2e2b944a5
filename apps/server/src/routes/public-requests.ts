import { publicRequestSchema } from "@tranche/domain";
import { Hono } from "hono";
import { clientIp, requireUser } from "../auth/middleware";
import type { AppEnv } from "../context";
import { parseJson, parseQuery } from "../lib/validate";
import { createPublicRequest, limitPublicForm } from "../services/public-requests/create";
import { listPublicRequests, listPublicRequestsQuery } from "../services/public-requests/list";

export const publicRequestRoutes = new Hono<AppEnv>()
  // Public: the Request Demo, Request Early Access and verifier partner forms.
  .post("/", async (c) => {
    const { db, env } = c.get("deps");
    const ip = clientIp(c);
    // Counted before validation, so malformed floods are limited too.
    await limitPublicForm(db, env, ip);
    const input = await parseJson(c, publicRequestSchema);
    return c.json(await createPublicRequest({ db, input, ip }), 201);
  })
  .get("/", async (c) => {
    const { db, env } = c.get("deps");
    const actor = requireUser(c);
    const input = parseQuery(c, listPublicRequestsQuery);
    return c.json(await listPublicRequests({ ctx: { db, env, actor }, input }));
  });
