import { Readable } from "node:stream";
import { createRoute } from "@hono/zod-openapi";
import {
  dismissFlagSchema,
  EVIDENCE_FLAG_CODES,
  evidenceChecksSchema,
  evidenceContentType,
  evidenceFlagSchema,
  evidenceSchema,
  itemsOf,
} from "@tranche/domain";
import { z } from "zod";
import { serviceContext } from "../auth/middleware";
import { notFound } from "../errors";
import {
  ApiRoutes,
  body,
  empty,
  errors,
  file,
  idempotencyHeaders,
  idempotencyKey,
  idParams,
  json,
  jsonBody,
  param,
  SESSION,
} from "../openapi/routes";
import { openEvidence } from "../services/evidence/download";
import { listEvidence } from "../services/evidence/list";
import { removeEvidence } from "../services/evidence/remove";
import { uploadEvidence } from "../services/evidence/upload";
import { dismissFlag } from "../services/evidence-checks/dismiss";
import { evidenceChecksOf } from "../services/evidence-checks/read";

const tags = ["Evidence"];
const params = idParams;

const list = createRoute({
  method: "get",
  path: "/{id}/evidence",
  operationId: "listEvidence",
  tags,
  summary: "The milestone's evidence files with their SHA-256",
  security: SESSION,
  request: { params },
  responses: { 200: json(itemsOf(evidenceSchema), "The files.") },
});

const upload = createRoute({
  method: "post",
  path: "/{id}/evidence",
  operationId: "uploadEvidence",
  tags,
  summary: "Upload evidence files (multipart field `files`; the project's owner or its verifier)",
  description:
    "Beside `files`, an optional JSON field `captures` gives each file's capture tags, in order: " +
    "`{ sha256, latitude, longitude, accuracy, capturedAt }`. A tagged file whose SHA-256 differs from its entry's " +
    "is refused with 422 `hash_mismatch` and nothing of the upload is stored. The server computes each capture's " +
    "distance to the project's site and flags one taken farther than EVIDENCE_SITE_RADIUS_M (`far_from_site`) " +
    "or outside the milestone's verification window (`outside_window`). Send an `Idempotency-Key` header to make " +
    "retries safe: the same key answers the first result again and stores nothing twice.",
  security: SESSION,
  request: {
    params,
    headers: idempotencyHeaders,
    body: {
      required: true,
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            properties: {
              files: { type: "array", items: { type: "string", contentMediaType: "application/octet-stream" } },
            },
            required: ["files"],
          },
        },
      },
    },
  },
  responses: {
    201: json(itemsOf(evidenceSchema), "The stored files, with their capture tags and flags."),
    ...errors(400, 415, 422),
  },
});

/** Attachment + nosniff: an uploaded HTML or SVG file is never rendered in the app's origin. */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  // RFC 5987 attr-char excludes ' ( ) *, which encodeURIComponent leaves alone.
  const utf8 = encodeURIComponent(name).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${utf8}`;
}

const download = createRoute({
  method: "get",
  path: "/{id}",
  operationId: "downloadEvidence",
  tags,
  summary: "Download an evidence file (served as an attachment in a sandbox; `X-Evidence-SHA256` names its hash)",
  security: SESSION,
  request: { params },
  responses: { 200: file("application/octet-stream", "The file's bytes.") },
});

const remove = createRoute({
  method: "delete",
  path: "/{id}",
  operationId: "deleteEvidence",
  tags,
  summary: "Its uploader deletes an evidence file",
  description:
    "Refused (409) once the milestone is verified, for a file a release was approved on (uploaded before one of the " +
    "milestone's releases), and while the milestone is in verification unless the caller is its verifier.",
  security: SESSION,
  request: { params },
  responses: { 204: empty("Deleted.") },
});

const checks = createRoute({
  method: "get",
  path: "/{id}/checks",
  operationId: "getEvidenceChecks",
  tags,
  summary: "What the background checks read from the file and the flags they raised (whoever may see the file)",
  description:
    "Every upload is checked in the background: documents' kind, issuer, number, date, total and currency are read " +
    "(PDF text, or OCR of a scan or photo), photos are compared with every other on the platform by perceptual " +
    "hash, and metadata and PDF revisions are looked at for edits. `status` is `pending` until the checks ran, " +
    "`failed` when they could not; `checkerVersion` names the checker that produced the result.",
  security: SESSION,
  request: { params },
  responses: { 200: json(evidenceChecksSchema, "The checks' result.") },
});

const dismiss = createRoute({
  method: "post",
  path: "/{id}/flags/{code}/dismiss",
  operationId: "dismissEvidenceFlag",
  tags,
  summary: "Dismiss a flag with a reason (a verifier of the project, or an admin; audited)",
  security: SESSION,
  request: {
    params: z.object({ id: z.uuid(), code: z.enum(EVIDENCE_FLAG_CODES) }),
    body: jsonBody(dismissFlagSchema, { reason: "The supplier confirmed the second invoice replaces the first." }),
  },
  responses: { 200: json(evidenceFlagSchema, "The flag, dismissed."), ...errors(409) },
});

/** Mounted on /milestones: a milestone's evidence list and multipart upload. */
export const milestoneEvidenceRoutes = new ApiRoutes()
  .handle(list, async (c) => {
    const ctx = serviceContext(c);
    return c.json({ items: await listEvidence(ctx, param(c, "id", "Milestone")) }, 200);
  })
  .handle(upload, async (c) => {
    const ctx = serviceContext(c);
    const id = param(c, "id", "Milestone");
    const result = await uploadEvidence(ctx, id, c.req.raw, { idempotencyKey: idempotencyKey(c) });
    if (result.replayed) c.header("Idempotent-Replayed", "true");
    return c.json(result.body, 201);
  });

/** Mounted on /evidence: download and remove one file. */
export const evidenceRoutes = new ApiRoutes()
  .handleRaw(download, async (c) => {
    const file = await openEvidence(serviceContext(c), param(c, "id", "Evidence"));
    // A file stored before types were screened is served as what it may be served as, too.
    c.header("Content-Type", evidenceContentType(file.contentType));
    c.header("Content-Length", String(file.size));
    c.header("Content-Disposition", contentDisposition(file.originalName));
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Content-Security-Policy", "sandbox; default-src 'none'");
    c.header("Cache-Control", "private, no-store");
    c.header("X-Evidence-SHA256", file.sha256);
    return c.body(Readable.toWeb(file.stream) as ReadableStream);
  })
  .handle(checks, async (c) => c.json(await evidenceChecksOf(serviceContext(c), param(c, "id", "Evidence")), 200))
  .handle(dismiss, async (c) => {
    // Who may call first (401/403), then the id, the code and the body, as on every route (ADR 023).
    const ctx = serviceContext(c);
    const id = param(c, "id", "Evidence");
    // An unknown code names no flag: 404, as for an id that names nothing.
    const code = EVIDENCE_FLAG_CODES.find((known) => known === c.req.param("code"));
    if (!code) throw notFound("Flag");
    const { reason } = await body(c, dismiss);
    return c.json(await dismissFlag(ctx, id, code, reason), 200);
  })
  .handleRaw(remove, async (c) => {
    await removeEvidence(serviceContext(c), param(c, "id", "Evidence"));
    return c.body(null, 204);
  });
