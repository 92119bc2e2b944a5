import { Hono } from "hono";
import { requireRole } from "../auth/middleware";
import type { AppEnv } from "../context";
import { listOutboxEmails } from "../services/email/outbox-list";

export const outboxRoutes = new Hono<AppEnv>().get("/emails", async (c) => {
  const actor = requireRole(c, "admin");
  const { db, env } = c.get("deps");
  return c.json(await listOutboxEmails({ ctx: { db, env, actor } }));
});
