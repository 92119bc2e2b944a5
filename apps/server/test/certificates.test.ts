// Release certificates: a PDF anyone on the project can download, whose fingerprint and QR code let anyone check
// it at /verify against Tranche's record, and whose facts never change once issued.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { CertificateFacts } from "@tranche/domain";
import { asc, eq, sql } from "drizzle-orm";
import { extractText, getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../src/db/client";
import {
  auditEvents,
  disbursements,
  evidence,
  evidenceFlags,
  releaseCertificates,
  verificationDecisions,
} from "../src/db/schema";
import { takeCheckpoint } from "../src/services/audit/checkpoints";
import { verifyAuditChain } from "../src/services/audit/verify-chain";
import { certificateFingerprint, issueMissingCertificates } from "../src/services/certificates/facts";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

let dataDir: string;
let t: TestApp;
let owner: TestUser;
let investor: TestUser;
let verifier: TestUser;
let outsider: TestUser;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "tranche-certificates-"));
  t = await createTestApp({ DATA_DIR: dataDir, PUBLIC_URL: "https://tranche.example" });
  owner = await t.user("project_owner", { name: "Olivia Owner", organization: "Sunrise Developments" });
  investor = await t.user("investor");
  verifier = await t.user("verifier", {
    name: "Victor Verifier",
    organization: "Independent Audit LLP",
    verifiedOrganization: "Independent Audit LLP",
  });
  outsider = await t.user("investor");
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A milestone approved through the API, with one evidence file; returns its release id. */
async function approvedRelease() {
  const project = await makeProject(t, {
    owner,
    investors: [investor],
    verifiers: [verifier],
    name: "Mojave Solar Farm",
  });
  const milestone = await makeMilestone(t, project, { title: "Foundations poured", capitalAmount: 250_000.5 });
  const files = new FormData();
  files.append("files", new Blob(["site inspection report"], { type: "text/plain" }), "inspection.txt");
  expect((await t.request("POST", `/api/milestones/${milestone.id}/evidence`, { as: owner, raw: files })).status).toBe(
    201,
  );
  expect((await t.request("POST", `/api/milestones/${milestone.id}/start`, { as: verifier })).status).toBe(200);
  expect((await t.request("POST", `/api/milestones/${milestone.id}/approve`, { as: verifier, body: {} })).status).toBe(
    200,
  );
  const [release] = await t.deps.db.select().from(disbursements).where(eq(disbursements.milestoneId, milestone.id));
  return release.id;
}

/** The verifier's approval of a started milestone, its release and the certificate stored with it. */
async function approvedWithCertificate(milestoneId: string, body: Record<string, unknown>) {
  const approved = await t.request("POST", `/api/milestones/${milestoneId}/approve`, { as: verifier, body });
  expect(approved.status).toBe(200);
  const [release] = await t.deps.db.select().from(disbursements).where(eq(disbursements.milestoneId, milestoneId));
  const [stored] = await t.deps.db
    .select()
    .from(releaseCertificates)
    .where(eq(releaseCertificates.releaseId, release.id));
  return { release, stored, facts: stored.facts as CertificateFacts };
}

async function download(releaseId: string, as: TestUser) {
  const res = await t.app.request(`/api/releases/${releaseId}/certificate`, { headers: { cookie: as.cookie } });
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

async function pdfText(bytes: Uint8Array) {
  const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
  return text;
}

describe("GET /api/releases/:id/certificate", () => {
  it("is a PDF stating the release, beneficiary, approval, evidence hash, audit event and how to check it", async () => {
    const releaseId = await approvedRelease();
    const { res, bytes } = await download(releaseId, investor);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="tranche-release-.+\.pdf"$/);
    const fingerprint = res.headers.get("x-certificate-fingerprint") ?? "";
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe("%PDF-");

    const text = await pdfText(bytes);
    expect(text).toContain("Release certificate");
    expect(text).toContain("$250,000.50 USD");
    expect(text).toContain("Mojave Solar Farm");
    expect(text).toContain("Foundations poured");
    expect(text).toContain("Olivia Owner, Sunrise Developments");
    expect(text).toContain("Victor Verifier, Independent Audit LLP");
    expect(text).toContain("inspection.txt");
    const sha = (
      await t.request("GET", `/api/milestones/${(await releaseRow(releaseId)).milestoneId}/evidence`, { as: owner })
    ).body.items[0].sha256;
    expect(text).toContain(sha);
    expect(text).toContain(fingerprint);
    // Long values wrap across lines in the PDF.
    const joined = text.replace(/\s+/g, "");
    expect(joined).toContain(`https://tranche.example/verify?release=${releaseId}&hash=${fingerprint}`);
    expect(text).toContain("Not yet signed");
  });

  it("prints every name as written, in any Latin, Greek or Cyrillic script and with currency signs", async () => {
    const names = {
      project: "Łódź Solar “Wschód” ₹ €",
      owner: "Jiří Dvořák",
      ownerOrganization: "ООО Стройка",
      verifier: "Αλέξης Παπαδόπουλος",
      verifierOrganization: "Ελεγκτική Α.Ε. — Øresund ApS",
      milestone: "Fundación – Fase 2",
    };
    const writer = await t.user("project_owner", { name: names.owner, organization: names.ownerOrganization });
    const checker = await t.user("verifier", {
      name: names.verifier,
      organization: names.verifierOrganization,
      verifiedOrganization: names.verifierOrganization,
    });
    const project = await makeProject(t, { owner: writer, verifiers: [checker], name: names.project, currency: "EUR" });
    const milestone = await makeMilestone(t, project, { title: names.milestone, capitalAmount: 12_500 });
    expect((await t.request("POST", `/api/milestones/${milestone.id}/start`, { as: checker })).status).toBe(200);
    const approve = { as: checker, body: {} };
    expect((await t.request("POST", `/api/milestones/${milestone.id}/approve`, approve)).status).toBe(200);
    const [release] = await t.deps.db.select().from(disbursements).where(eq(disbursements.milestoneId, milestone.id));
    const { res, bytes } = await download(release.id, writer);
    expect(res.status).toBe(200);

    const text = await pdfText(bytes);
    expect(text).toContain(names.project);
    expect(text).toContain(`${names.milestone} (due `);
    expect(text).toContain(`${names.owner}, ${names.ownerOrganization}`);
    expect(text).toContain(`${names.verifier}, ${names.verifierOrganization}`);
    expect(text).toContain("€12,500.00 EUR");
  });

  it("keeps its facts once issued: a second download carries the same fingerprint, and the record cannot be edited", async () => {
    const releaseId = await approvedRelease();
    const first = await download(releaseId, owner);
    const fingerprint = first.res.headers.get("x-certificate-fingerprint");
    // A project renamed afterwards does not change what was certified.
    const release = await releaseRow(releaseId);
    await t.request("PATCH", `/api/projects/${release.projectId}`, { as: owner, body: { name: "Renamed project" } });
    const second = await download(releaseId, investor);
    expect(second.res.headers.get("x-certificate-fingerprint")).toBe(fingerprint);
    expect(await pdfText(second.bytes)).toContain("Mojave Solar Farm");
    const edit = await t.deps.db
      .execute(sql`update release_certificates set fingerprint = ${"0".repeat(64)} where release_id = ${releaseId}`)
      .then(
        () => "updated",
        (error: Error) => String(error.cause ?? error),
      );
    expect(edit).toMatch(/release_certificates is append-only/);
    const audit = await t.request("GET", `/api/audit?projectId=${release.projectId}`, { as: owner });
    expect(audit.body.items.filter((e: { action: string }) => e.action === "certificate.issued")).toHaveLength(1);
  });

  it("names the signed checkpoint that covers the approval once one exists", async () => {
    const releaseId = await approvedRelease();
    const checkpoint = await takeCheckpoint(t.deps.db, t.deps.auditKey, { every: 1, intervalMs: 1 });
    expect(checkpoint).not.toBeNull();
    const { bytes } = await download(releaseId, owner);
    const text = await pdfText(bytes);
    expect(text).toContain(`Signed checkpoint`);
    expect(text).toContain(checkpoint?.headHash ?? "missing");
  });

  it("is not found for people outside the project, and needs a sign-in", async () => {
    const releaseId = await approvedRelease();
    expect((await download(releaseId, outsider)).res.status).toBe(404);
    expect((await t.request("GET", `/api/releases/${releaseId}/certificate`, { as: null })).status).toBe(401);
    expect((await t.request("GET", "/api/releases/not-an-id/certificate", { as: owner })).status).toBe(404);
    // Issued with the release; the refused downloads changed nothing.
    expect(
      await t.deps.db.select().from(releaseCertificates).where(eq(releaseCertificates.releaseId, releaseId)),
    ).toHaveLength(1);
  });

  it("is issued in the release's own transaction, and a download never writes", async () => {
    const releaseId = await approvedRelease();
    const [stored] = await t.deps.db
      .select()
      .from(releaseCertificates)
      .where(eq(releaseCertificates.releaseId, releaseId));
    expect(stored.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    const writes = async () =>
      (
        await queryRows<{ audit: number; certificates: number }>(
          t.deps.db,
          sql`select (select count(*)::int from audit_events) as audit,
                     (select count(*)::int from release_certificates) as certificates`,
        )
      )[0];
    const before = await writes();
    for (const as of [owner, investor, owner]) {
      const { res } = await download(releaseId, as);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-certificate-fingerprint")).toBe(stored.fingerprint);
    }
    expect(await writes()).toEqual(before);
  });

  it("is issued with its approval's event in one statement: its fingerprint hashes the facts stored, which cite that event, and its own event follows it in the chain", async () => {
    // Text that JSON must escape, outside ASCII, and shaped like the placeholders the statement is built with.
    const project = await makeProject(t, {
      owner,
      investors: [investor],
      verifiers: [verifier],
      name: 'Zürich "Quay" \\ @@00000000-0000-4000-8000-000000000000@@ — 北',
    });
    const milestone = await makeMilestone(t, project, { title: 'Pier ① "west"', capitalAmount: 1_000.01 });
    expect((await t.request("POST", `/api/milestones/${milestone.id}/start`, { as: verifier })).status).toBe(200);
    const { release, stored, facts } = await approvedWithCertificate(milestone.id, { comments: '@@hole@@ "quoted" ✓' });
    expect(certificateFingerprint(facts)).toBe(stored.fingerprint);
    expect(facts.project.name).toBe(project.name);
    const events = await t.deps.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.projectId, project.id))
      .orderBy(asc(auditEvents.id));
    const approval = events.find((e) => e.action === "milestone.approved");
    const issued = events.find((e) => e.action === "certificate.issued");
    expect(facts.auditEvent).toEqual({
      id: approval?.id,
      hash: approval?.hash,
      recordedAt: approval?.createdAt.toISOString(),
    });
    expect(issued).toMatchObject({ entityId: release.id, after: { fingerprint: stored.fingerprint } });
    expect(issued?.prevHash).toBe(approval?.hash);
    expect(issued?.createdAt.toISOString()).toBe(facts.issuedAt);
    expect(await verifyAuditChain(t.deps.db)).toMatchObject({ ok: true });
    const checked = await t.request(
      "GET",
      `/api/certificates/verify?release=${release.id}&hash=${stored.fingerprint}`,
      {
        as: null,
      },
    );
    expect(checked.body).toMatchObject({ valid: true });
  });

  it("states the records as they stood: the owner, each file with its capture and flags, the decision and a partial share", async () => {
    const project = await makeProject(t, { owner, investors: [investor], verifiers: [verifier], name: "Delta Quay" });
    const milestone = await makeMilestone(t, project, { title: "Deck", capitalAmount: 1_000 });
    const capturedAt = new Date("2026-03-04T05:06:07.891Z");
    const [tagged, plain] = await t.deps.db
      .insert(evidence)
      .values([
        {
          milestoneId: milestone.id,
          sha256: "a".repeat(64),
          size: 1234,
          contentType: "image/jpeg",
          originalName: "deck.jpg",
          uploadedBy: owner.id,
          createdAt: new Date(Date.now() - 2_000),
          captureLatitude: 51.50722,
          captureLongitude: -0.1275,
          captureAccuracyM: 4.5,
          capturedAt,
          distanceToSiteM: 12.25,
        },
        {
          milestoneId: milestone.id,
          sha256: "b".repeat(64),
          size: 99,
          contentType: "text/plain",
          originalName: "notes.txt",
          uploadedBy: owner.id,
          createdAt: new Date(Date.now() - 1_000),
        },
      ])
      .returning();
    await t.deps.db.insert(evidenceFlags).values({
      evidenceId: tagged.id,
      code: "far_from_site",
      severity: "medium",
      message: "Taken 12 m from the site.",
      source: "capture",
    });
    expect((await t.request("POST", `/api/milestones/${milestone.id}/start`, { as: verifier })).status).toBe(200);
    const { release, stored, facts } = await approvedWithCertificate(milestone.id, {
      share: 60,
      comments: "Railings are not fitted yet.",
    });
    const [decision] = await t.deps.db
      .select()
      .from(verificationDecisions)
      .where(eq(verificationDecisions.milestoneId, milestone.id));
    expect(facts).toMatchObject({
      release: { id: release.id, amount: "600.00" },
      beneficiary: { name: "Olivia Owner", organization: "Sunrise Developments" },
      approvals: [
        {
          verifier: { name: "Victor Verifier", organization: "Independent Audit LLP" },
          decision: "approved",
          decidedAt: decision.decidedAt.toISOString(),
        },
      ],
      policy: "Approval by the project's assigned verifier",
      partial: { share: 60, of: "1000.00", reason: "Railings are not fitted yet." },
    });
    expect(facts.evidence).toEqual([
      {
        name: "deck.jpg",
        sha256: tagged.sha256,
        size: 1234,
        capture: {
          // The owner's upload: the certificate says the position is their device's word, not a verifier's capture.
          by: "owner",
          latitude: 51.50722,
          longitude: -0.1275,
          accuracy: 4.5,
          capturedAt: capturedAt.toISOString(),
          distanceToSiteM: 12.25,
        },
        flags: [{ code: "far_from_site", severity: "medium", message: "Taken 12 m from the site.", dismissed: false }],
      },
      { name: "notes.txt", sha256: plain.sha256, size: 99 },
    ]);
    expect(certificateFingerprint(facts)).toBe(stored.fingerprint);
  });

  it("names an approver's organization as an admin verified it, never as their profile declares it", async () => {
    const declaring = await t.user("verifier", { name: "Dana Declared", organization: "Big Four Audit LLP" });
    const project = await makeProject(t, { owner, verifiers: [declaring] });
    const milestone = await makeMilestone(t, project, { status: "in_verification", verifier: declaring });
    const approved = await t.request("POST", `/api/milestones/${milestone.id}/approve`, { as: declaring, body: {} });
    expect(approved.status).toBe(200);
    const [release] = await t.deps.db.select().from(disbursements).where(eq(disbursements.milestoneId, milestone.id));
    const [stored] = await t.deps.db
      .select()
      .from(releaseCertificates)
      .where(eq(releaseCertificates.releaseId, release.id));
    const facts = stored.facts as CertificateFacts;
    expect(facts.approvals.map((a) => a.verifier)).toEqual([{ name: "Dana Declared", organization: null }]);
    expect(facts.beneficiary).toEqual({ name: "Olivia Owner", organization: "Sunrise Developments" });
  });

  it("of a release made before certificates were issued with it: none is made by a GET, the start-up pass issues it", async () => {
    const project = await makeProject(t, { owner, investors: [investor], verifiers: [verifier] });
    const milestone = await makeMilestone(t, project, { status: "verified", verifier });
    const [release] = await t.deps.db.select().from(disbursements).where(eq(disbursements.milestoneId, milestone.id));
    expect((await download(release.id, owner)).res.status).toBe(404);
    expect(
      await t.deps.db.select().from(releaseCertificates).where(eq(releaseCertificates.releaseId, release.id)),
    ).toEqual([]);
    expect(await issueMissingCertificates(t.deps.db)).toBeGreaterThanOrEqual(1);
    expect(await issueMissingCertificates(t.deps.db)).toBe(0);
    const { res, bytes } = await download(release.id, owner);
    expect(res.status).toBe(200);
    expect(await pdfText(bytes)).toContain("Test milestone");
  });
});

async function releaseRow(id: string) {
  const [row] = await t.deps.db.select().from(disbursements).where(eq(disbursements.id, id));
  return row;
}

describe("cancelled releases", () => {
  it("have no certificate once cancelled, and a certificate issued before says so when checked", async () => {
    const admin = await t.user("admin");
    // The custodian reports the failure with its token; an admin then cancels.
    const made = await t.request("POST", "/api/api-tokens", {
      as: admin,
      body: { name: "Custodian", scopes: ["releases:write"] },
    });
    const cancel = async (id: string) => {
      const failed = await t.request("POST", `/api/releases/${id}/fail`, {
        headers: { authorization: `Bearer ${made.body.token}` },
        body: { reason: "Account closed." },
      });
      expect(failed.status).toBe(200);
      const cancelled = await t.request("POST", `/api/releases/${id}/cancel`, {
        as: admin,
        body: { reason: "Paid outside Tranche." },
      });
      expect(cancelled.status).toBe(200);
    };
    const never = await approvedRelease();
    await cancel(never);
    const refused = await download(never, owner);
    expect(refused.res.status).toBe(409);

    const issued = await approvedRelease();
    const fingerprint = (await download(issued, owner)).res.headers.get("x-certificate-fingerprint");
    await cancel(issued);
    const check = await t.request("GET", `/api/certificates/verify?release=${issued}&hash=${fingerprint}`, {
      as: null,
    });
    expect(check.body).toMatchObject({ valid: true, cancelled: true });
  });
});

describe("GET /api/certificates/verify", () => {
  it("confirms a genuine certificate to anyone, showing only what it states, and refuses any other hash", async () => {
    const releaseId = await approvedRelease();
    const { res } = await download(releaseId, owner);
    const fingerprint = res.headers.get("x-certificate-fingerprint") ?? "";

    const ok = await t.request(
      "GET",
      `/api/certificates/verify?release=${releaseId}&hash=${fingerprint.toUpperCase()}`,
      {
        as: null,
      },
    );
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      valid: true,
      cancelled: false,
      fingerprint,
      facts: {
        release: { id: releaseId, amount: "250000.50", currency: "USD" },
        beneficiary: { name: "Olivia Owner", organization: "Sunrise Developments" },
        evidence: [{ name: "inspection.txt" }],
      },
    });
    // Nobody's email or internal user id is disclosed.
    expect(JSON.stringify(ok.body)).not.toContain("@example.test");
    expect(JSON.stringify(ok.body)).not.toContain(verifier.id);

    const forged = fingerprint.replace(/^./, (c) => (c === "0" ? "1" : "0"));
    const bad = await t.request("GET", `/api/certificates/verify?release=${releaseId}&hash=${forged}`, { as: null });
    expect(bad.body).toEqual({ valid: false });
    const unknown = await t.request(
      "GET",
      `/api/certificates/verify?release=7b0c3f5e-9a1d-4c2e-8f3b-2d6a1e0c9b47&hash=${fingerprint}`,
      { as: null },
    );
    expect(unknown.body).toEqual({ valid: false });
    const malformed = await t.request("GET", "/api/certificates/verify?release=x&hash=y", { as: null });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.details).toHaveProperty("release");
  });

  it("is not confirmed once its stored facts or fingerprint were rewritten: the record's certificate.issued decides", async () => {
    const releaseId = await approvedRelease();
    const { res } = await download(releaseId, owner);
    const fingerprint = res.headers.get("x-certificate-fingerprint") ?? "";
    const check = (hash: string) =>
      t.request("GET", `/api/certificates/verify?release=${releaseId}&hash=${hash}`, { as: null });
    expect((await check(fingerprint)).body.valid).toBe(true);
    const [stored] = await t.deps.db
      .select()
      .from(releaseCertificates)
      .where(eq(releaseCertificates.releaseId, releaseId));
    const facts = stored.facts as CertificateFacts;
    const inflated = { ...facts, release: { ...facts.release, amount: "9250000.50" } };
    // Someone with the database's owner rights turns its guard off and rewrites the row.
    await t.deps.db.execute(sql`alter table release_certificates disable trigger user`);
    try {
      // The facts alone, the fingerprint kept: the certificate they would match was never issued.
      await t.deps.db
        .update(releaseCertificates)
        .set({ facts: inflated })
        .where(eq(releaseCertificates.releaseId, releaseId));
      expect((await check(fingerprint)).body).toEqual({ valid: false });
      // The facts with a fingerprint to match: the audit record names the fingerprint issued, not this one.
      const forged = certificateFingerprint(inflated);
      await t.deps.db
        .update(releaseCertificates)
        .set({ fingerprint: forged })
        .where(eq(releaseCertificates.releaseId, releaseId));
      expect((await check(forged)).body).toEqual({ valid: false });
      expect((await check(fingerprint)).body).toEqual({ valid: false });
      // Put back as issued, it is confirmed again.
      await t.deps.db
        .update(releaseCertificates)
        .set({ facts: stored.facts, fingerprint })
        .where(eq(releaseCertificates.releaseId, releaseId));
      expect((await check(fingerprint)).body).toMatchObject({ valid: true, fingerprint });
    } finally {
      await t.deps.db.execute(sql`alter table release_certificates enable trigger user`);
    }
  });
});
