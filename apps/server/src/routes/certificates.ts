import type { CertificateCheckDto } from "@tranche/domain";
import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../context";
import { disbursements, releaseCertificates } from "../db/schema";
import { conflict, notFound } from "../errors";
import { parseQuery, pathId } from "../lib/validate";
import { requireVisibleProject } from "../services/access";
import { coveringCheckpoint, storedCertificate } from "../services/certificates/facts";
import { renderCertificate } from "../services/certificates/pdf";
import { serviceContext } from "./projects";

export const certificateQuerySchema = z.strictObject({
  release: z.uuid({ error: "release must be a release id." }),
  hash: z
    .string({ error: "hash is required." })
    .trim()
    .toLowerCase()
    .regex(/^[0-9a-f]{64}$/, { error: "hash must be the certificate's 64-character SHA-256 fingerprint." }),
});

/** GET /api/releases/:id/certificate: the release certificate PDF, for those who may see the project. */
export const releaseCertificateRoutes = new Hono<AppEnv>().get("/:id/certificate", async (c) => {
  const ctx = serviceContext(c);
  const releaseId = pathId(c, "id", "Release");
  const { db, env } = ctx;
  const [release] = await db.select().from(disbursements).where(eq(disbursements.id, releaseId));
  if (!release) throw notFound("Release");
  await requireVisibleProject(db, ctx.actor, release.projectId).catch(() => {
    throw notFound("Release");
  });
  if (release.status === "cancelled") {
    throw conflict("This release was cancelled: no capital is paid under it, so it has no certificate.");
  }
  // Issued with the release (and at start-up for older ones): a GET only reads it, so a retried read never writes.
  const certificate = await storedCertificate(db, releaseId);
  if (!certificate) throw notFound("Certificate");
  const { facts, fingerprint } = certificate;
  const checkpoint = facts.auditEvent ? await coveringCheckpoint(db, facts.auditEvent.id) : null;
  const pdf = await renderCertificate({ facts, fingerprint, checkpoint, publicUrl: env.PUBLIC_URL });
  const name = `tranche-release-${releaseId.slice(0, 8)}.pdf`;
  return c.body(new Uint8Array(pdf), 200, {
    "Content-Type": "application/pdf",
    "Content-Disposition": `attachment; filename="${name}"`,
    "X-Certificate-Fingerprint": fingerprint,
  });
});

/** GET /api/certificates/verify?release=&hash=: public; says whether a certificate matches the record. */
export const certificateRoutes = new Hono<AppEnv>().get("/verify", async (c) => {
  const { release, hash } = parseQuery(c, certificateQuerySchema);
  const { db } = c.get("deps");
  const [stored] = await db
    .select({
      facts: releaseCertificates.facts,
      fingerprint: releaseCertificates.fingerprint,
      status: disbursements.status,
    })
    .from(releaseCertificates)
    .innerJoin(disbursements, eq(disbursements.id, releaseCertificates.releaseId))
    .where(eq(releaseCertificates.releaseId, release));
  if (!stored || stored.fingerprint !== hash) return c.json({ valid: false } satisfies CertificateCheckDto);
  const facts = stored.facts as Extract<CertificateCheckDto, { valid: true }>["facts"];
  const checkpoint = facts.auditEvent ? await coveringCheckpoint(db, facts.auditEvent.id) : null;
  return c.json({
    valid: true,
    fingerprint: stored.fingerprint,
    facts,
    checkpoint,
    cancelled: stored.status === "cancelled",
  } satisfies CertificateCheckDto);
});
