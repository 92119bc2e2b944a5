import type { CertificateCheckDto, CertificateFacts } from "@tranche/domain";
import { eq, sql } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import type { Db } from "../../db/client";
import { auditEvents, disbursements, releaseCertificates } from "../../db/schema";
import { conflict, notFound } from "../../errors";
import { requireVisibleProject } from "../access";
import { certificateFingerprint, coveringCheckpoint, storedCertificate } from "./facts";
import { renderCertificate } from "./pdf";

/**
 * A release's certificate as a PDF, for those who may see its project (others are told it does not exist). It was
 * issued with the release (and at start-up for older ones): reading it never writes, so a retried read is safe.
 */
export async function certificatePdf(
  ctx: ServiceContext,
  releaseId: string,
): Promise<{ pdf: Uint8Array<ArrayBuffer>; fingerprint: string }> {
  const { db, env } = ctx;
  const [release] = await db.select().from(disbursements).where(eq(disbursements.id, releaseId));
  if (!release) throw notFound("Release");
  await requireVisibleProject(db, ctx.actor, release.projectId).catch(() => {
    throw notFound("Release");
  });
  if (release.status === "cancelled") {
    throw conflict("This release was cancelled: no capital is paid under it, so it has no certificate.");
  }
  const certificate = await storedCertificate(db, releaseId);
  if (!certificate) throw notFound("Certificate");
  const { facts, fingerprint } = certificate;
  const checkpoint = facts.auditEvent ? await coveringCheckpoint(db, facts.auditEvent.id) : null;
  const pdf = await renderCertificate({ facts, fingerprint, checkpoint, publicUrl: env.PUBLIC_URL });
  return { pdf: new Uint8Array(pdf), fingerprint };
}

/**
 * Whether a certificate (its release and fingerprint) matches the record, and if so what it states. Public. The
 * stored facts must still hash to the fingerprint, and that fingerprint must be the one the hash-chained audit record
 * says was issued (`certificate.issued`): a certificate row rewritten outside the application (its guard turned off)
 * is not confirmed, whatever it now says.
 */
export async function checkCertificate(db: Db, releaseId: string, hash: string): Promise<CertificateCheckDto> {
  const [stored] = await db
    .select({
      facts: releaseCertificates.facts,
      fingerprint: releaseCertificates.fingerprint,
      status: disbursements.status,
      issued: sql<string | null>`(
        select ${auditEvents.after} ->> 'fingerprint' from ${auditEvents}
        where ${auditEvents.entityType} = 'disbursement' and ${auditEvents.entityId} = ${releaseId}
          and ${auditEvents.action} = 'certificate.issued'
        order by ${auditEvents.id} limit 1)`,
    })
    .from(releaseCertificates)
    .innerJoin(disbursements, eq(disbursements.id, releaseCertificates.releaseId))
    .where(eq(releaseCertificates.releaseId, releaseId));
  if (!stored || stored.fingerprint !== hash || stored.issued !== hash) return { valid: false };
  const facts = stored.facts as CertificateFacts;
  if (certificateFingerprint(facts) !== hash) return { valid: false };
  const checkpoint = facts.auditEvent ? await coveringCheckpoint(db, facts.auditEvent.id) : null;
  return { valid: true, fingerprint: stored.fingerprint, facts, checkpoint, cancelled: stored.status === "cancelled" };
}
