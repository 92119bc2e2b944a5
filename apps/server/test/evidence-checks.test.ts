// The background evidence checks: every upload is read and compared by an outbox job, never in the upload's request;
// GET /api/evidence/:id/checks answers its result, flags explain themselves on each evidence item, a verifier can
// dismiss one with a reason, and a re-check keeps the dismissal. The bench's CI slice runs here too.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { todayIso } from "@tranche/domain";
import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runEvidenceBench } from "../../../bench/evidence-checks";
import { incrementalUpdate, rng, sitePhoto, textPdf, withCameraExif } from "../../../bench/evidence-corpus";
import { auditEvents } from "../src/db/schema";
import { closeOcr } from "../src/services/evidence-checks/ocr";
import { evidenceCheckTopic, queueRechecks } from "../src/services/evidence-checks/run";
import { createOutboxWorker } from "../src/services/outbox/worker";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

let dataDir: string;
let t: TestApp;
let owner: TestUser;
let otherOwner: TestUser;
let investor: TestUser;
let verifier: TestUser;
let outsider: TestUser;
let admin: TestUser;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "tranche-evidence-checks-"));
  t = await createTestApp({ DATA_DIR: dataDir });
  [owner, otherOwner, investor, verifier, outsider, admin] = await Promise.all([
    t.user("project_owner"),
    t.user("project_owner"),
    t.user("investor"),
    t.user("verifier"),
    t.user("verifier"),
    t.user("admin"),
  ]);
});
afterAll(async () => {
  await closeOcr();
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const runChecks = () => createOutboxWorker(t.deps, evidenceCheckTopic(t.deps)).drain();
const daysAgo = (days: number) => todayIso(new Date(Date.now() - days * 86_400_000));

async function scenario(options: { owner?: TestUser; name?: string; capitalAmount?: number } = {}) {
  const project = await makeProject(t, {
    owner: options.owner ?? owner,
    investors: [investor],
    verifiers: [verifier],
    name: options.name,
  });
  const milestone = await makeMilestone(t, project, { capitalAmount: options.capitalAmount ?? 100_000 });
  return { project, milestone };
}

async function upload(milestoneId: string, as: TestUser, name: string, content: Buffer, type: string) {
  const data = new FormData();
  data.append("files", new Blob([new Uint8Array(content)], { type }), name);
  const res = await t.request("POST", `/api/milestones/${milestoneId}/evidence`, { as, raw: data });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.items[0] as { id: string };
}

const checksOf = async (evidenceId: string, as: TestUser) => {
  const res = await t.request("GET", `/api/evidence/${evidenceId}/checks`, { as });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

const invoiceLines = (number: string, total: string, date = daysAgo(3)) => [
  "INVOICE",
  "From: Acme Concrete Ltd",
  `Invoice No: ${number}`,
  `Date: ${date}`,
  "Bill to: Riverside Clinic Trust",
  `Subtotal: ${total}`,
  `Total due: ${total}`,
];

describe("evidence checks", () => {
  it("reads an invoice in the background and flags a total beyond the milestone's amount", async () => {
    const { milestone } = await scenario({ capitalAmount: 100_000 });
    const pdf = await textPdf(invoiceLines("INV-2026-0042", "USD 150,400.00"), { created: new Date() });
    const file = await upload(milestone.id, owner, "invoice.pdf", pdf, "application/pdf");
    // The upload answered before anything was read.
    expect(await checksOf(file.id, investor)).toEqual({
      status: "pending",
      checkerVersion: null,
      extracted: null,
      flags: [],
    });
    expect(await runChecks()).toBeGreaterThanOrEqual(1);
    const checks = await checksOf(file.id, investor);
    expect(checks).toMatchObject({
      status: "done",
      checkerVersion: "checks/2",
      extracted: {
        kind: "invoice",
        issuer: "Acme Concrete Ltd",
        documentNumber: "INV-2026-0042",
        issueDate: daysAgo(3),
        total: 150_400,
        currency: "USD",
      },
    });
    expect(checks.flags).toEqual([
      {
        code: "total_mismatch",
        severity: "high",
        message: "This invoice's total, $150,400, is more than the milestone's amount of $100,000.",
        dismissed: false,
      },
    ]);
    // The same flag on the evidence item.
    const list = await t.request("GET", `/api/milestones/${milestone.id}/evidence`, { as: investor });
    expect(list.body.items[0].flags.map((f: { code: string }) => f.code)).toEqual(["total_mismatch"]);
  });

  it("flags a document number seen before, and a document dated outside the milestone's window", async () => {
    const { milestone } = await scenario();
    const first = await textPdf(invoiceLines("CERT-7781", "USD 10.00"), { created: new Date() });
    const lines = ["CERTIFICATE OF COMPLETION", "Certificate No: CERT-7781", "Issued by: Atlas Engineering GmbH"];
    const again = await textPdf([...lines, `Date of issue: ${daysAgo(400)}`], { created: new Date() });
    const a = await upload(
      milestone.id,
      owner,
      "cert-a.pdf",
      await textPdf([...lines, `Date: ${daysAgo(2)}`]),
      "application/pdf",
    );
    await runChecks();
    const b = await upload(milestone.id, owner, "cert-b.pdf", again, "application/pdf");
    await upload(milestone.id, owner, "unrelated.pdf", first, "application/pdf");
    await runChecks();
    expect((await checksOf(a.id, owner)).flags).toEqual([]);
    const flags = (await checksOf(b.id, owner)).flags;
    expect(flags.map((f: { code: string }) => f.code).sort()).toEqual(["duplicate_document_number", "outside_window"]);
    expect(flags.find((f: { code: string }) => f.code === "duplicate_document_number").message).toBe(
      "A certificate numbered CERT-7781 was submitted before, already in this milestone.",
    );
  });

  it("finds a photo reused in another project: members are not told which, admins are", async () => {
    const photo = await sitePhoto(rng(7));
    const { milestone: original } = await scenario({ name: "Riverside Clinic" });
    await upload(original.id, owner, "site.jpg", photo, "image/jpeg");
    await runChecks();
    const { milestone } = await scenario({ owner: otherOwner, name: "Hilltop School" });
    const resized = await sharp(photo)
      .resize({ width: 600 })
      .modulate({ brightness: 1.1 })
      .jpeg({ quality: 60 })
      .toBuffer();
    const reused = await upload(milestone.id, otherOwner, "my-site.jpg", resized, "image/jpeg");
    await runChecks();
    const member = await checksOf(reused.id, otherOwner);
    expect(member.flags).toEqual([
      {
        code: "reused_photo",
        severity: "high",
        message: "This photo matches evidence in another project.",
        dismissed: false,
      },
    ]);
    expect(JSON.stringify(member)).not.toContain("Riverside");
    const asAdmin = await checksOf(reused.id, admin);
    expect(asAdmin.flags[0].message).toContain('project "Riverside Clinic"');
  });

  it("flags a file reused byte for byte from another project's milestone: members are not told which, admins are", async () => {
    // Last quarter's invoice: any file type, found by its SHA-256 (a PDF's text or a photo's look play no part).
    const pdf = await textPdf(["Site works, phase 1", "Signed off"], { created: new Date() });
    const { milestone: original } = await scenario({ name: "Harbour Depot" });
    await upload(original.id, owner, "phase-1.pdf", pdf, "application/pdf");
    await runChecks();
    const { milestone } = await scenario({ owner: otherOwner, name: "Quarry Road" });
    const reused = await upload(milestone.id, otherOwner, "phase-2.pdf", pdf, "application/pdf");
    await runChecks();
    const member = await checksOf(reused.id, otherOwner);
    expect(member.flags).toEqual([
      {
        code: "reused_file",
        severity: "high",
        message: "This exact file (the same SHA-256) was uploaded before, in another project.",
        dismissed: false,
      },
    ]);
    expect(JSON.stringify(member)).not.toContain("Harbour Depot");
    const list = await t.request("GET", `/api/milestones/${milestone.id}/evidence`, { as: verifier });
    expect(JSON.stringify(list.body)).not.toContain("Harbour Depot");
    expect(list.body.items[0].flags.map((f: { code: string }) => f.code)).toEqual(["reused_file"]);
    const asAdmin = await checksOf(reused.id, admin);
    expect(asAdmin.flags[0].message).toContain('project "Harbour Depot", milestone');

    // A verifier sets it aside with a reason, audited like every dismissal.
    const reason = "The same sign-off covers both depots; confirmed with the lender.";
    const res = await t.request("POST", `/api/evidence/${reused.id}/flags/reused_file/dismiss`, {
      as: verifier,
      body: { reason },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ code: "reused_file", dismissed: true, dismissal: { reason } });
    const [event] = await t.deps.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "evidence.flag_dismissed"), eq(auditEvents.entityId, reused.id)));
    expect(event.after).toEqual({ code: "reused_file", reason });
  });

  it("names this project's other milestone a file was reused from; the same milestone's re-upload is no reuse", async () => {
    const { project, milestone: first } = await scenario();
    const second = await makeMilestone(t, project, { title: "Roofing", capitalAmount: 1_000 });
    const video = Buffer.from("not really a video: a site walk-through, 2 minutes");
    const original = await upload(first.id, owner, "walk.mp4", video, "video/mp4");
    const again = await upload(first.id, owner, "walk (1).mp4", video, "video/mp4");
    const reused = await upload(second.id, owner, "roof-walk.mp4", video, "video/mp4");
    await runChecks();
    expect((await checksOf(original.id, owner)).flags).toEqual([]);
    expect((await checksOf(again.id, owner)).flags).toEqual([]);
    expect((await checksOf(reused.id, owner)).flags).toEqual([
      {
        code: "reused_file",
        severity: "medium",
        message: `This exact file (the same SHA-256) was uploaded before, in this project's milestone "${first.title}".`,
        dismissed: false,
      },
    ]);
  });

  it("flags an identical photo once, as a reused file, and a re-encoded copy as a reused photo", async () => {
    const photo = await sitePhoto(rng(21));
    const { project, milestone: first } = await scenario();
    const second = await makeMilestone(t, project, { capitalAmount: 1_000 });
    await upload(first.id, owner, "gate.jpg", photo, "image/jpeg");
    await runChecks();
    const copy = await upload(second.id, owner, "gate.jpg", photo, "image/jpeg");
    const reencoded = await upload(
      second.id,
      owner,
      "gate-small.jpg",
      await sharp(photo).resize({ width: 500 }).jpeg({ quality: 70 }).toBuffer(),
      "image/jpeg",
    );
    await runChecks();
    const codes = async (id: string) => (await checksOf(id, owner)).flags.map((f: { code: string }) => f.code);
    expect(await codes(copy.id)).toEqual(["reused_file"]);
    expect(await codes(reencoded.id)).toEqual(["reused_photo"]);
  });

  it("flags altered files: a PDF revised after it was saved, an edited photo, a camera photo stripped of its metadata", async () => {
    const { milestone } = await scenario();
    const updated = incrementalUpdate(await textPdf(invoiceLines("INV-9", "USD 5.00"), { created: new Date() }));
    const small = await sharp(await sitePhoto(rng(11)))
      .resize({ width: 400 })
      .toBuffer();
    const edited = await withCameraExif(small, { software: "Adobe Photoshop 25.1", capturedAt: "2019:01:02 10:00:00" });
    const strippedPhoto = await sharp(await sitePhoto(rng(12)))
      .resize({ width: 400 })
      .jpeg()
      .toBuffer();
    const files = [
      await upload(milestone.id, owner, "invoice.pdf", updated, "application/pdf"),
      await upload(milestone.id, owner, "IMG_2041.jpg", edited, "image/jpeg"),
      await upload(milestone.id, owner, "IMG_2042.jpg", strippedPhoto, "image/jpeg"),
    ];
    await runChecks();
    const codes = await Promise.all(
      files.map(async (f) => (await checksOf(f.id, owner)).flags.map((flag: { code: string }) => flag.code).sort()),
    );
    expect(codes[0]).toContain("pdf_incremental_update");
    expect(codes[1]).toEqual(["edited_metadata", "outside_window"]);
    expect(codes[2]).toEqual(["stripped_metadata"]);
  });

  it("lets a verifier dismiss a flag with a reason (audited); a re-check keeps it dismissed", async () => {
    const { milestone, project } = await scenario({ capitalAmount: 1_000 });
    const pdf = await textPdf(invoiceLines("INV-555", "USD 9,000.00"), { created: new Date() });
    const file = await upload(milestone.id, owner, "invoice.pdf", pdf, "application/pdf");
    await runChecks();
    const dismiss = (
      as: TestUser,
      code = "total_mismatch",
      reason = "Paid in two tranches; the second is next month.",
    ) => t.request("POST", `/api/evidence/${file.id}/flags/${code}/dismiss`, { as, body: { reason } });

    expect((await dismiss(owner)).status).toBe(403);
    expect((await dismiss(investor)).status).toBe(403);
    expect((await dismiss(outsider)).status).toBe(404);
    expect((await dismiss(verifier, "reused_photo")).status).toBe(404);
    expect((await dismiss(verifier, "no_such_code")).status).toBe(404);
    expect((await dismiss(verifier, "total_mismatch", "")).status).toBe(400);
    const res = await dismiss(verifier);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      code: "total_mismatch",
      dismissed: true,
      dismissal: { reason: "Paid in two tranches; the second is next month.", by: { id: verifier.id } },
    });
    expect((await dismiss(verifier)).status).toBe(409);
    const [event] = await t.deps.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "evidence.flag_dismissed"), eq(auditEvents.projectId, project.id)));
    expect(event.after).toMatchObject({
      code: "total_mismatch",
      reason: "Paid in two tranches; the second is next month.",
    });

    // `npm run cli -- evidence recheck --all` queues every file again; the dismissal stands.
    expect(await queueRechecks(t.deps.db, { all: true })).toBeGreaterThan(0);
    expect((await checksOf(file.id, verifier)).status).toBe("pending");
    await runChecks();
    const checks = await checksOf(file.id, verifier);
    expect(checks.status).toBe("done");
    expect(checks.flags).toEqual([expect.objectContaining({ code: "total_mismatch", dismissed: true })]);
  });

  it("freezes the flags into the verification report at the decision", async () => {
    const project = await makeProject(t, { owner, investors: [investor], verifiers: [verifier] });
    const milestone = await makeMilestone(t, project, { status: "in_verification", verifier, capitalAmount: 500 });
    const pdf = await textPdf(invoiceLines("INV-777", "USD 800.00"), { created: new Date() });
    const file = await upload(milestone.id, verifier, "invoice.pdf", pdf, "application/pdf");
    await runChecks();
    const approved = await t.request("POST", `/api/milestones/${milestone.id}/approve`, {
      as: verifier,
      body: { comments: "Second invoice covers the rest." },
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const report = await t.request("POST", `/api/milestones/${milestone.id}/report`, { as: verifier, body: {} });
    expect(report.status, JSON.stringify(report.body)).toBe(201);
    expect(report.body.evidence).toEqual([
      expect.objectContaining({
        id: file.id,
        flags: [expect.objectContaining({ code: "total_mismatch", severity: "high", dismissed: false })],
      }),
    ]);
  });

  it("answers 404 to someone who may not see the file", async () => {
    const { milestone } = await scenario();
    const file = await upload(milestone.id, owner, "note.txt", Buffer.from("plain text"), "text/plain");
    expect((await t.request("GET", `/api/evidence/${file.id}/checks`, { as: outsider })).status).toBe(404);
    await runChecks();
    expect(await checksOf(file.id, owner)).toEqual({
      status: "done",
      checkerVersion: "checks/2",
      extracted: null,
      flags: [],
    });
  });
});

describe("bench slice", () => {
  it("meets the goals on the CI slice of the labelled corpus", { timeout: 240_000 }, async () => {
    const result = await runEvidenceBench({ slice: true });
    expect(result.goals).toEqual({
      textPdfFields95: true,
      photographedFields85: true,
      scannedPdfFields85: true,
      reuseRecall95: true,
      reuseFalsePositives1: true,
      tenSecondsPerFile: true,
    });
    expect(result.tamperRecall).toBeGreaterThanOrEqual(0.9);
  });
});
