import { createApiTokenSchema } from "@tranche/domain";
import { Hono } from "hono";
import { requireRole } from "../auth/middleware";
import { requireSecondFactor } from "../auth/require-second-factor";
import type { AppEnv } from "../context";
import { parseJson, pathId } from "../lib/validate";
import { createApiToken } from "../services/api-tokens/create";
import { listApiTokens } from "../services/api-tokens/list";
import { revokeApiToken } from "../services/api-tokens/revoke";

/** /api/api-tokens: admins create, list and revoke tokens (a token cannot manage tokens). */
export const apiTokenRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const actor = requireRole(c, "admin");
    const { db, env } = c.get("deps");
    return c.json({ items: await listApiTokens({ ctx: { db, env, actor } }) });
  })
  .post("/", async (c) => {
    const actor = requireRole(c, "admin");
    await requireSecondFactor(c);
    const input = await parseJson(c, createApiTokenSchema);
    const { db, env } = c.get("deps");
    return c.json(await createApiToken({ ctx: { db, env, actor }, input }), 201);
  })
  .delete("/:id", async (c) => {
    const actor = requireRole(c, "admin");
    await requireSecondFactor(c);
    const tokenId = pathId(c, "id", "API token");
    const { db, env } = c.get("deps");
    await revokeApiToken({ ctx: { db, env, actor }, tokenId });
    return c.body(null, 204);
  });
