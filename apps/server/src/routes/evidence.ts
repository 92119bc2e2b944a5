import { Readable } from "node:stream";
import { Hono } from "hono";
import type { AppEnv } from "../context";
import { pathId } from "../lib/validate";
import { openEvidence } from "../services/evidence/download";
import { listEvidence } from "../services/evidence/list";
import { removeEvidence } from "../services/evidence/remove";
import { uploadEvidence } from "../services/evidence/upload";
import { idempotencyKey, serviceContext } from "./verification";

/** Mounted on /milestones: a milestone's evidence list and multipart upload. */
export const milestoneEvidenceRoutes = new Hono<AppEnv>()
  .get("/:id/evidence", async (c) =>
    c.json({ items: await listEvidence(serviceContext(c), pathId(c, "id", "Milestone")) }),
  )
  .post("/:id/evidence", async (c) => {
    const ctx = serviceContext(c);
    const id = pathId(c, "id", "Milestone");
    const result = await uploadEvidence(ctx, id, c.req.raw, { idempotencyKey: idempotencyKey(c) });
    if (result.replayed) c.header("Idempotent-Replayed", "true");
    return c.json(result.body, result.status as 201);
  });

/** Attachment + nosniff: an uploaded HTML or SVG file is never rendered in the app's origin. */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  // RFC 5987 attr-char excludes ' ( ) *, which encodeURIComponent leaves alone.
  const utf8 = encodeURIComponent(name).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${utf8}`;
}

/** Mounted on /evidence: download and remove one file. */
export const evidenceRoutes = new Hono<AppEnv>()
  .get("/:id", async (c) => {
    const file = await openEvidence(serviceContext(c), pathId(c, "id", "Evidence"));
    c.header("Content-Type", file.contentType);
    c.header("Content-Length", String(file.size));
    c.header("Content-Disposition", contentDisposition(file.originalName));
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Content-Security-Policy", "sandbox; default-src 'none'");
    c.header("Cache-Control", "private, no-store");
    c.header("X-Evidence-SHA256", file.sha256);
    return c.body(Readable.toWeb(file.stream) as ReadableStream);
  })
  .delete("/:id", async (c) => {
    await removeEvidence(serviceContext(c), pathId(c, "id", "Evidence"));
    return c.body(null, 204);
  });
