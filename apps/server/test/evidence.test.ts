// Evidence files: streamed to DATA_DIR/evidence under their SHA-256, the per-file limit, downloads as
// attachments, removal by the uploader, and who may do what.
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, evidence } from "../src/db/schema";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

const LIMIT_MB = 0.05; // 52,428 bytes, so the test stays small
let dataDir: string;
let t: TestApp;
let owner: TestUser;
let investor: TestUser;
let verifier: TestUser;
let outsider: TestUser;
let admin: TestUser;
let investingVerifier: TestUser;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "tranche-evidence-"));
  t = await createTestApp({ DATA_DIR: dataDir, MAX_UPLOAD_MB: LIMIT_MB });
  [owner, investor, verifier, outsider, admin, investingVerifier] = await Promise.all([
    t.user("project_owner"),
    t.user("investor"),
    t.user("verifier"),
    t.user("verifier"),
    t.user("admin"),
    t.user("verifier"),
  ]);
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const sha = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const evidenceDir = () => path.join(dataDir, "evidence");
const blobs = () => readdirSync(evidenceDir()).filter((name) => !name.startsWith("."));
/** Partial uploads: every process writes them under .tmp/<host>--<pid>/. */
const temps = () =>
  (readdirSync(path.join(evidenceDir(), ".tmp"), { recursive: true }) as string[]).filter((f) => f.endsWith(".part"));

async function scenario(status: "pending" | "in_verification" | "verified" = "pending") {
  const project = await makeProject(t, {
    owner,
    investors: [investor, investingVerifier],
    verifiers: [verifier, investingVerifier],
  });
  const milestone = await makeMilestone(t, project, {
    status,
    verifier: status === "pending" ? undefined : verifier,
  });
  return { project, milestone };
}

function form(files: { name: string; content: string | Buffer; type?: string }[]): FormData {
  const data = new FormData();
  for (const f of files) data.append("files", new Blob([f.content], { type: f.type ?? "" }), f.name);
  return data;
}

const upload = (milestoneId: string, as: TestUser | null, files: Parameters<typeof form>[0]) =>
  t.request("POST", `/api/milestones/${milestoneId}/evidence`, { as, raw: form(files) });

describe("upload", () => {
  it("stores several files under their SHA-256 and records hash, size, type, name and uploader", async () => {
    const { milestone } = await scenario();
    const report = "Site survey, grading complete.";
    const photo = Buffer.alloc(20_000, 7);
    const res = await upload(milestone.id, owner, [
      { name: "survey.txt", content: report, type: "text/plain" },
      { name: "photo.jpg", content: photo, type: "image/jpeg" },
    ]);
    expect(res.status).toBe(201);
    expect(res.body.items).toHaveLength(2);
    expect(res.body.items[0]).toMatchObject({
      milestoneId: milestone.id,
      originalName: "survey.txt",
      size: Buffer.byteLength(report),
      contentType: "text/plain",
      sha256: sha(report),
      uploadedBy: { id: owner.id, name: owner.name },
      canRemove: true,
    });
    expect(res.body.items[1]).toMatchObject({ originalName: "photo.jpg", size: 20_000, sha256: sha(photo) });
    expect(blobs()).toEqual(expect.arrayContaining([sha(report), sha(photo)]));
    expect(blobs()).not.toContain("survey.txt");
    expect(temps()).toEqual([]);

    const events = await t.deps.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "evidence.uploaded"), eq(auditEvents.projectId, milestone.projectId)));
    expect(events).toHaveLength(2);
    expect(events[0].after).toMatchObject({ milestoneId: milestone.id, sha256: sha(report) });
  });

  it("never uses the client's file name as a path", async () => {
    const { milestone } = await scenario();
    const content = "not a password file";
    const res = await upload(milestone.id, owner, [{ name: "../../etc/passwd", content }]);
    expect(res.status).toBe(201);
    expect(res.body.items[0].originalName).toBe("passwd");
    expect(existsSync(path.join(evidenceDir(), sha(content)))).toBe(true);
    expect(existsSync(path.join(dataDir, "etc"))).toBe(false);
  });

  it("answers 413 for a file over the limit and leaves nothing behind, even beside a good file", async () => {
    const { milestone } = await scenario();
    const before = blobs().length;
    const good = "small and fine";
    const big = Buffer.alloc(Math.ceil(LIMIT_MB * 1024 * 1024) + 1, 1);
    const res = await upload(milestone.id, owner, [
      { name: "fine.txt", content: good },
      { name: "big.bin", content: big },
    ]);
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({
      code: "payload_too_large",
      message: `"big.bin" is larger than the ${LIMIT_MB} MB limit per file.`,
    });
    expect(blobs()).toHaveLength(before);
    expect(blobs()).not.toContain(sha(good));
    expect(temps()).toEqual([]);
    const rows = await t.deps.db.select().from(evidence).where(eq(evidence.milestoneId, milestone.id));
    expect(rows).toEqual([]);
  });

  it("refuses an empty file by name (400) and stores nothing of its request", async () => {
    const { milestone } = await scenario();
    const before = blobs().length;
    const res = await upload(milestone.id, owner, [
      { name: "fine.txt", content: "has content" },
      { name: "blank.pdf", content: "" },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: "invalid_input",
      message: '"blank.pdf" is empty; evidence must have content.',
    });
    expect(blobs()).toHaveLength(before);
    expect(temps()).toEqual([]);
    const rows = await t.deps.db.select().from(evidence).where(eq(evidence.milestoneId, milestone.id));
    expect(rows).toEqual([]);
  });

  it("refuses a body that is not multipart (415) and an upload without files (400)", async () => {
    const { milestone } = await scenario();
    const json = await t.request("POST", `/api/milestones/${milestone.id}/evidence`, { as: owner, body: {} });
    expect(json.status).toBe(415);
    const empty = new FormData();
    empty.append("note", "no files here");
    const none = await t.request("POST", `/api/milestones/${milestone.id}/evidence`, { as: owner, raw: empty });
    expect(none.status).toBe(400);
    expect(none.body.error.message).toBe("Choose at least one file to upload.");
  });

  it("lets the project's verifier upload, and refuses everyone else", async () => {
    const { milestone } = await scenario("in_verification");
    expect((await upload(milestone.id, verifier, [{ name: "check.txt", content: "verifier notes" }])).status).toBe(201);
    for (const [who, status] of [
      [investor, 403],
      [admin, 403],
      [investingVerifier, 403],
      [outsider, 404],
      [null, 401],
    ] as const) {
      const res = await upload(milestone.id, who, [{ name: "x.txt", content: `from ${who?.id}` }]);
      expect(res.status).toBe(status);
    }
    const rows = await t.deps.db.select().from(evidence).where(eq(evidence.milestoneId, milestone.id));
    expect(rows).toHaveLength(1);
  });

  it("refuses new evidence on a verified milestone with 409", async () => {
    const { milestone } = await scenario("verified");
    const res = await upload(milestone.id, owner, [{ name: "late.txt", content: "too late" }]);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe("Milestone is verified; its evidence cannot be changed.");
  });
});

describe("list and download", () => {
  it("lists files for members and serves them as attachments with nosniff; outsiders get 404", async () => {
    const { milestone } = await scenario();
    const html = "<script>alert(1)</script>";
    const up = await upload(milestone.id, owner, [{ name: "page.html", content: html, type: "text/html" }]);
    const id = up.body.items[0].id;

    const list = await t.request("GET", `/api/milestones/${milestone.id}/evidence`, { as: investor });
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([expect.objectContaining({ id, canRemove: false, sha256: sha(html) })]);
    expect((await t.request("GET", `/api/milestones/${milestone.id}/evidence`, { as: outsider })).status).toBe(404);

    const res = await t.app.request(`/api/evidence/${id}`, { headers: { cookie: investor.cookie } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(html);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="page.html"; filename*=UTF-8''page.html`);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-evidence-sha256")).toBe(sha(html));

    expect((await t.request("GET", `/api/evidence/${id}`, { as: outsider })).status).toBe(404);
    expect((await t.request("GET", `/api/evidence/${id}`, { as: null })).status).toBe(401);
    expect((await t.request("GET", "/api/evidence/nope", { as: owner })).status).toBe(404);
  });
});

describe("what a file is served as", () => {
  it("believes only types a browser cannot run: HTML, SVG and scripts are stored and served as bytes to save", async () => {
    const { milestone } = await scenario();
    const script = "fetch('/api/auth/session')";
    const res = await upload(milestone.id, owner, [
      { name: "report.html", content: "<script src='/api/evidence/x'></script>", type: "text/html" },
      {
        name: "plan.svg",
        content: "<svg xmlns='http://www.w3.org/2000/svg'><script>1</script></svg>",
        type: "image/svg+xml",
      },
      { name: "notes.js", content: script, type: "text/javascript" },
      { name: "style.css", content: "body{}", type: "text/css" },
      { name: "invoice.pdf", content: "%PDF-1.4", type: "application/pdf" },
      { name: "site.jpg", content: Buffer.alloc(100, 1), type: "image/jpeg" },
      { name: "walk.mp4", content: Buffer.alloc(100, 2), type: "video/mp4" },
      { name: "log.txt", content: "seen", type: "text/plain" },
    ]);
    expect(res.status).toBe(201);
    expect(res.body.items.map((e: { contentType: string }) => e.contentType)).toEqual([
      "application/octet-stream",
      "application/octet-stream",
      "application/octet-stream",
      "application/octet-stream",
      "application/pdf",
      "image/jpeg",
      "video/mp4",
      "text/plain",
    ]);
    const js = res.body.items[2];
    const download = await t.app.request(`/api/evidence/${js.id}`, { headers: { cookie: investor.cookie } });
    expect(download.headers.get("content-type")).toBe("application/octet-stream");
    expect(await download.text()).toBe(script);
  });

  it("serves a file stored with a script's type before types were screened as bytes, and lists it so", async () => {
    const { milestone } = await scenario();
    const up = await upload(milestone.id, owner, [{ name: "old.js", content: "alert(document.domain)" }]);
    const id = up.body.items[0].id;
    await t.deps.db.update(evidence).set({ contentType: "text/javascript" }).where(eq(evidence.id, id));
    const download = await t.app.request(`/api/evidence/${id}`, { headers: { cookie: verifier.cookie } });
    expect(download.headers.get("content-type")).toBe("application/octet-stream");
    expect(download.headers.get("x-content-type-options")).toBe("nosniff");
    const list = await t.request("GET", `/api/milestones/${milestone.id}/evidence`, { as: verifier });
    expect(list.body.items[0].contentType).toBe("application/octet-stream");
  });

  it("keeps names readable as they are: no direction overrides, controls or half characters", async () => {
    const { milestone } = await scenario();
    const long = `${"a".repeat(254)}😀tail`;
    const res = await upload(milestone.id, owner, [
      // Shown as "invoiceexe.pdf" by the right-to-left override; really an .exe.
      { name: "invoice\u202Efdp.exe", content: "one" },
      { name: "ter\u009b31mminal\u0085.txt", content: "two" },
      { name: "zero\u200bwidth\u2066.txt", content: "three" },
      { name: long, content: "four" },
      { name: "../../etc/passwd", content: "five" },
    ]);
    expect(res.status).toBe(201);
    const names = res.body.items.map((e: { originalName: string }) => e.originalName);
    expect(names.slice(0, 3)).toEqual(["invoicefdp.exe", "ter31mminal.txt", "zerowidth.txt"]);
    // Cut at 255 characters, never inside the emoji's surrogate pair.
    expect(names[3]).toBe(`${"a".repeat(254)}😀`);
    expect(names[4]).toBe("passwd");
    const download = await t.app.request(`/api/evidence/${res.body.items[0].id}`, {
      headers: { cookie: owner.cookie },
    });
    expect(download.headers.get("content-disposition")).toBe(
      `attachment; filename="invoicefdp.exe"; filename*=UTF-8''invoicefdp.exe`,
    );
  });
});

describe("remove", () => {
  it("lets only the uploader remove a file, and deletes the blob once nothing references it", async () => {
    const { milestone } = await scenario("pending");
    const content = "shared content";
    const a = (await upload(milestone.id, owner, [{ name: "a.txt", content }])).body.items[0];
    const b = (await upload(milestone.id, verifier, [{ name: "b.txt", content }])).body.items[0];
    expect(a.sha256).toBe(b.sha256);

    expect((await t.request("DELETE", `/api/evidence/${a.id}`, { as: verifier })).status).toBe(403);
    expect((await t.request("DELETE", `/api/evidence/${a.id}`, { as: investor })).status).toBe(403);
    expect((await t.request("DELETE", `/api/evidence/${a.id}`, { as: outsider })).status).toBe(404);

    expect((await t.request("DELETE", `/api/evidence/${a.id}`, { as: owner })).status).toBe(204);
    expect(blobs()).toContain(content && sha(content));
    expect((await t.request("DELETE", `/api/evidence/${b.id}`, { as: verifier })).status).toBe(204);
    expect(blobs()).not.toContain(sha(content));
    expect((await t.request("DELETE", `/api/evidence/${b.id}`, { as: verifier })).status).toBe(404);

    const history = await t.request("GET", `/api/milestones/${milestone.id}/history`, { as: investor });
    expect(history.body.items.map((e: { action: string }) => e.action)).toEqual([
      "evidence.uploaded",
      "evidence.uploaded",
      "evidence.removed",
      "evidence.removed",
    ]);
  });

  it("keeps what the verifier is checking: the owner removes nothing while the milestone is in verification", async () => {
    const { milestone } = await scenario("in_verification");
    const mine = (await upload(milestone.id, owner, [{ name: "invoice.txt", content: "invoice 17" }])).body.items[0];
    const theirs = (await upload(milestone.id, verifier, [{ name: "site.txt", content: "site photo" }])).body.items[0];
    const refused = await t.request("DELETE", `/api/evidence/${mine.id}`, { as: owner });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(
      "Milestone is in verification; its evidence cannot be removed until the verifier decides.",
    );
    const asOwner = await t.request("GET", `/api/milestones/${milestone.id}/evidence`, { as: owner });
    expect(asOwner.body.items.map((e: { id: string; canRemove: boolean }) => [e.id, e.canRemove])).toEqual([
      [mine.id, false],
      [theirs.id, false],
    ]);
    // The verifier checking it may still take back an upload of their own.
    const asVerifier = await t.request("GET", `/api/milestones/${milestone.id}/evidence`, { as: verifier });
    expect(asVerifier.body.items.find((e: { id: string }) => e.id === theirs.id).canRemove).toBe(true);
    expect((await t.request("DELETE", `/api/evidence/${theirs.id}`, { as: verifier })).status).toBe(204);
    const left = await t.request("GET", `/api/milestones/${milestone.id}/evidence`, { as: owner });
    expect(left.body.items.map((e: { id: string }) => e.id)).toEqual([mine.id]);
  });

  it("keeps a file a release was approved on, once the rest of the milestone is open again", async () => {
    const { milestone } = await scenario("in_verification");
    const judged = (await upload(milestone.id, owner, [{ name: "phase-1.txt", content: "phase 1" }])).body.items[0];
    const part = await t.request("POST", `/api/milestones/${milestone.id}/approve`, {
      as: verifier,
      body: { share: 40, comments: "Phase 1 of 3 is complete." },
    });
    expect(part.body.status).toBe("pending");
    const later = (await upload(milestone.id, owner, [{ name: "phase-2.txt", content: "phase 2" }])).body.items[0];
    const list = await t.request("GET", `/api/milestones/${milestone.id}/evidence`, { as: owner });
    expect(list.body.items.map((e: { id: string; canRemove: boolean }) => [e.id, e.canRemove])).toEqual([
      [judged.id, false],
      [later.id, true],
    ]);
    const refused = await t.request("DELETE", `/api/evidence/${judged.id}`, { as: owner });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(
      "A release was approved on this file; it is kept with the milestone's record.",
    );
    expect((await t.request("DELETE", `/api/evidence/${later.id}`, { as: owner })).status).toBe(204);
  });

  it("keeps a file a rejection was made on, while it is disputed and after: its report still lists it", async () => {
    const { milestone } = await scenario("in_verification");
    const judged = (await upload(milestone.id, owner, [{ name: "invoice.txt", content: "invoice 17" }])).body.items[0];
    const reject = { comments: "The invoice is forged." };
    expect(
      (await t.request("POST", `/api/milestones/${milestone.id}/reject`, { as: verifier, body: reject })).status,
    ).toBe(200);
    const dispute = { statement: "The invoice is genuine." };
    expect(
      (await t.request("POST", `/api/milestones/${milestone.id}/dispute`, { as: owner, body: dispute })).status,
    ).toBe(200);
    const refused = await t.request("DELETE", `/api/evidence/${judged.id}`, { as: owner });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(
      "A decision was made on this file; it is kept with the milestone's record.",
    );
    const list = await t.request("GET", `/api/milestones/${milestone.id}/evidence`, { as: owner });
    expect(list.body.items.map((e: { id: string; canRemove: boolean }) => [e.id, e.canRemove])).toEqual([
      [judged.id, false],
    ]);
    const report = await t.request("POST", `/api/milestones/${milestone.id}/report`, { as: verifier, body: {} });
    expect(report.body.evidence.map((e: { id: string }) => e.id)).toEqual([judged.id]);
  });

  it("refuses removal once the milestone is verified", async () => {
    const { milestone } = await scenario("in_verification");
    const item = (await upload(milestone.id, verifier, [{ name: "final.txt", content: "final proof" }])).body.items[0];
    expect(
      (await t.request("POST", `/api/milestones/${milestone.id}/approve`, { as: verifier, body: {} })).status,
    ).toBe(200);
    const res = await t.request("DELETE", `/api/evidence/${item.id}`, { as: verifier });
    expect(res.status).toBe(409);
    const list = await t.request("GET", `/api/milestones/${milestone.id}/evidence`, { as: verifier });
    expect(list.body.items[0].canRemove).toBe(false);
  });
});
