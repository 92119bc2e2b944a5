import { createRoute } from "@hono/zod-openapi";
import {
  auditCheckpointSchema,
  auditEventSchema,
  auditExportQuerySchema,
  auditPublicKeySchema,
  auditQuerySchema,
  checkpointQuerySchema,
  pageOf,
} from "@tranche/domain";
import { z } from "zod";
import { serviceContext } from "../auth/middleware";
import { csvFilename, csvResponse } from "../lib/csv";
import { ApiRoutes, file, json, PUBLIC, query, SESSION } from "../openapi/routes";
import { listCheckpoints } from "../services/audit/checkpoints";
import { AUDIT_CSV_HEADER, exportAuditEvents, listAuditEvents } from "../services/audit/history";

const tags = ["Audit"];

const list = createRoute({
  method: "get",
  path: "/",
  operationId: "listAuditEvents",
  tags,
  summary: "The hash-chained audit record (admins: all; members: their projects)",
  security: SESSION,
  request: { query: auditQuerySchema },
  responses: { 200: json(pageOf(auditEventSchema), "A page of events, newest first; `nextCursor` is an event id.") },
});

const exportCsv = createRoute({
  method: "get",
  path: "/export.csv",
  operationId: "exportAuditEvents",
  tags,
  summary: "The audit events the caller may see (optionally one project's), oldest first, as a streamed CSV download",
  security: SESSION,
  request: { query: auditExportQuerySchema },
  responses: {
    200: file(
      "text/csv",
      "CSV: before and after as JSON text, each event's chain hash; formula-leading cells neutralised.",
    ),
  },
});

const checkpoints = createRoute({
  method: "get",
  path: "/checkpoints",
  operationId: "listAuditCheckpoints",
  tags,
  summary: "Signed checkpoints of the audit chain head (admins)",
  security: SESSION,
  request: { query: checkpointQuerySchema },
  responses: {
    200: json(
      z.strictObject({ items: z.array(auditCheckpointSchema), nextCursor: z.number().int().nullable() }),
      "A page of checkpoints, newest first; `nextCursor` is the `before` of the next page.",
    ),
  },
});

const publicKey = createRoute({
  method: "get",
  path: "/public-key",
  operationId: "getAuditPublicKey",
  tags,
  summary: "The Ed25519 public key that verifies checkpoint signatures",
  security: PUBLIC,
  responses: { 200: json(auditPublicKeySchema, "The key.") },
});

export const auditRoutes = new ApiRoutes()
  .handle(list, async (c) => {
    const ctx = serviceContext(c);
    const { cursor, before, ...rest } = query(c, list);
    return c.json(await listAuditEvents(ctx, { ...rest, before: cursor ?? before }), 200);
  })
  .handleRaw(exportCsv, (c) => {
    const ctx = serviceContext(c);
    const input = query(c, exportCsv);
    return csvResponse(c, csvFilename("audit-events"), AUDIT_CSV_HEADER, exportAuditEvents(ctx, input));
  })
  .handle(checkpoints, async (c) => {
    const ctx = serviceContext(c);
    return c.json(await listCheckpoints(ctx, query(c, checkpoints)), 200);
  })
  .handle(publicKey, (c) => {
    const { auditKey } = c.get("deps");
    return c.json({ algorithm: "Ed25519" as const, keyId: auditKey.keyId, publicKeyPem: auditKey.publicKeyPem }, 200);
  });
