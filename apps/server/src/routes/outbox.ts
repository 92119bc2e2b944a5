import { createRoute } from "@hono/zod-openapi";
import { outboxEmailSchema } from "@tranche/domain";
import { z } from "zod";
import { requireRole } from "../auth/middleware";
import { secondFactorState } from "../auth/require-second-factor";
import { ApiRoutes, json, SESSION } from "../openapi/routes";
import { listOutboxEmails } from "../services/email/outbox-list";

const list = createRoute({
  method: "get",
  path: "/emails",
  operationId: "listOutboxEmails",
  tags: ["Integrations"],
  summary: "The latest 100 emails and how each was handled (admins)",
  description:
    "Without SMTP_URL, messages are kept here instead of sent: their text and link are shown so the flow works on a fresh machine.",
  security: SESSION,
  responses: { 200: json(z.array(outboxEmailSchema), "The emails, newest first.") },
});

export const outboxRoutes = new ApiRoutes().handle(list, async (c) => {
  const actor = requireRole(c, "admin");
  // Without the second factor the list still shows what was sent, but not a link that opens an account.
  const secondFactorPassed = (await secondFactorState(c)) === "passed";
  const { db, env } = c.get("deps");
  return c.json(await listOutboxEmails({ ctx: { db, env, actor }, secondFactorPassed }), 200);
});
