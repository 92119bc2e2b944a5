import { updateUserSchema, userListQuerySchema } from "@tranche/domain";
import { Hono } from "hono";
import { requireRole } from "../auth/middleware";
import { requireSecondFactor } from "../auth/require-second-factor";
import type { AppEnv } from "../context";
import { parseJson, parseQuery, pathId } from "../lib/validate";
import { changeUserRole } from "../services/users/change-role";
import { listUsers } from "../services/users/list";

export const userRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const actor = requireRole(c, "admin");
    const { db, env } = c.get("deps");
    const input = parseQuery(c, userListQuerySchema);
    return c.json(await listUsers({ ctx: { db, env, actor }, input }));
  })
  .patch("/:id", async (c) => {
    // Permission before input: a non-admin learns nothing about the body or the id.
    const actor = requireRole(c, "admin");
    await requireSecondFactor(c);
    const userId = pathId(c, "id", "User");
    const input = await parseJson(c, updateUserSchema);
    const { db, env } = c.get("deps");
    return c.json(await changeUserRole({ ctx: { db, env, actor }, userId, input }));
  });
