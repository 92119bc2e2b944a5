import { listLimit } from "@tranche/domain";
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../context";
import { csvFilename, csvResponse } from "../lib/csv";
import { parseQuery } from "../lib/validate";
import { listCheckpoints } from "../services/audit/checkpoints";
import { AUDIT_CSV_HEADER, exportAuditEvents, listAuditEvents } from "../services/audit/history";
import { serviceContext } from "./verification";

const eventId = (message: string) =>
  z.coerce
    .number({ error: message })
    .int({ error: message })
    .positive({ error: message })
    .max(Number.MAX_SAFE_INTEGER, { error: message })
    .optional();

export const auditQuerySchema = z.strictObject({
  projectId: z.uuid({ error: "projectId must be a project id." }).optional(),
  /** The previous page's nextCursor (an event id); `before` is its older name. */
  cursor: eventId("Cursor is not valid."),
  before: eventId("before must be an event id."),
  limit: listLimit,
});

export const auditExportQuerySchema = auditQuerySchema.pick({ projectId: true });

export const checkpointQuerySchema = z.strictObject({
  before: z.coerce.number({ error: "before must be a checkpoint id." }).int().positive().optional(),
  limit: z.coerce.number({ error: "limit must be a number." }).int().min(1).max(100).default(25),
});

export const auditRoutes = new Hono<AppEnv>()
  /** GET /api/audit: everything for admins; members see the events of their projects. */
  .get("/", async (c) => {
    const ctx = serviceContext(c);
    const { cursor, before, ...query } = parseQuery(c, auditQuerySchema);
    return c.json(await listAuditEvents(ctx, { ...query, before: cursor ?? before }));
  })
  /** GET /api/audit/export.csv: the events the caller may see (optionally one project's), streamed as CSV. */
  .get("/export.csv", (c) => {
    const ctx = serviceContext(c);
    const query = parseQuery(c, auditExportQuerySchema);
    return csvResponse(c, csvFilename("audit-events"), AUDIT_CSV_HEADER, exportAuditEvents(ctx, query));
  })
  /** GET /api/audit/checkpoints: the signed chain heads, newest first (admins). */
  .get("/checkpoints", async (c) => {
    const ctx = serviceContext(c);
    return c.json(await listCheckpoints(ctx, parseQuery(c, checkpointQuerySchema)));
  })
  /** GET /api/audit/public-key: anyone may check a checkpoint's signature. */
  .get("/public-key", (c) => {
    const { auditKey } = c.get("deps");
    return c.json({ algorithm: "Ed25519", keyId: auditKey.keyId, publicKeyPem: auditKey.publicKeyPem });
  });
