import { Hono } from "hono";
import { requireUser } from "../auth/middleware";
import type { AppEnv } from "../context";
import { getDashboard } from "../services/dashboard/get-dashboard";

export const dashboardRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const actor = requireUser(c);
  const { db, env } = c.get("deps");
  return c.json(await getDashboard({ ctx: { db, env, actor } }));
});
