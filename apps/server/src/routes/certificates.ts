import { createRoute } from "@hono/zod-openapi";
import { certificateCheckSchema, certificateQuerySchema } from "@tranche/domain";
import { serviceContext } from "../auth/middleware";
import { ApiRoutes, file, idParams, json, PUBLIC, param, query, SESSION } from "../openapi/routes";
import { certificatePdf, checkCertificate } from "../services/certificates/read";

const tags = ["Releases"];

const download = createRoute({
  method: "get",
  path: "/{id}/certificate",
  operationId: "downloadReleaseCertificate",
  tags,
  summary: "The release certificate (PDF): amount, beneficiary, approvals, evidence hashes, audit proof, QR code",
  description:
    "Its facts are fixed when first issued; the `X-Certificate-Fingerprint` header carries their SHA-256, which " +
    "/api/certificates/verify checks. A cancelled release has none (409).",
  security: SESSION,
  request: { params: idParams },
  responses: { 200: file("application/pdf", "The PDF.") },
});

const verify = createRoute({
  method: "get",
  path: "/verify",
  operationId: "verifyCertificate",
  tags,
  summary: "Check a release certificate against Tranche's record",
  security: PUBLIC,
  request: { query: certificateQuerySchema },
  responses: { 200: json(certificateCheckSchema, "Whether it matches; when it does, what the certificate states.") },
});

/** GET /api/releases/:id/certificate: the release certificate PDF, for those who may see the project. */
export const releaseCertificateRoutes = new ApiRoutes().handleRaw(download, async (c) => {
  const ctx = serviceContext(c);
  const releaseId = param(c, "id", "Release");
  const { pdf, fingerprint } = await certificatePdf(ctx, releaseId);
  return c.body(pdf, 200, {
    "Content-Type": "application/pdf",
    "Content-Disposition": `attachment; filename="tranche-release-${releaseId.slice(0, 8)}.pdf"`,
    "X-Certificate-Fingerprint": fingerprint,
  });
});

/** GET /api/certificates/verify?release=&hash=: public; says whether a certificate matches the record. */
export const certificateRoutes = new ApiRoutes().handle(verify, async (c) => {
  const { release, hash } = query(c, verify);
  return c.json(await checkCertificate(c.get("deps").db, release, hash), 200);
});
