import { Hono } from "hono";
import { requireRole } from "../auth/middleware";
import { secondFactorState } from "../auth/require-second-factor";
import type { AppEnv } from "../context";
import { listOutboxEmails } from "../services/email/outbox-list";

export const outboxRoutes = new Hono<AppEnv>().get("/emails", async (c) => {
  const actor = requireRole(c, "admin");
  // Without the second factor the list still shows what was sent, but not a link that opens an account.
  const secondFactorPassed = (await secondFactorState(c)) === "passed";
  const { db, env } = c.get("deps");
  return c.json(await listOutboxEmails({ ctx: { db, env, actor }, secondFactorPassed }));
});
