import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../context";
import { parseQuery } from "../lib/validate";
import { AUDIT_PAGE_SIZE, listAuditEvents } from "../services/audit/history";
import { serviceContext } from "./verification";

const auditQuerySchema = z.strictObject({
  projectId: z.uuid({ error: "projectId must be a project id." }).optional(),
  before: z.coerce.number({ error: "before must be an event id." }).int().positive().optional(),
  limit: z.coerce.number({ error: "limit must be a number." }).int().min(1).max(200).default(AUDIT_PAGE_SIZE),
});

/** GET /api/audit: everything for admins; members see the events of their projects. */
export const auditRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const ctx = serviceContext(c);
  return c.json(await listAuditEvents(ctx, parseQuery(c, auditQuerySchema)));
});
