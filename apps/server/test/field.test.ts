// The verifier in the field: projects' site coordinates, captures that prove where and when (hashes checked, tags
// stored, distance and window flags), Idempotency-Key on every action the offline queue replays, decisions refused
// against a stale round, and the field view's assignments by urgency.
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { distanceMeters } from "@tranche/domain";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditEvents,
  disbursements,
  evidence,
  evidenceFlags,
  milestones,
  projects,
  verificationDecisions,
} from "../src/db/schema";
import { raiseCaptureFlags } from "../src/services/evidence/upload";
import { daysFromNow, makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

// The Eiffel Tower's lawn; 5 km east of it lies the Bois de Vincennes side of Paris.
const SITE = { latitude: 48.85837, longitude: 2.294481 };
const NEAR = { latitude: 48.8589, longitude: 2.2951 };
const FAR = { latitude: 48.85837, longitude: 2.362743 };

let dataDir: string;
let t: TestApp;
let owner: TestUser;
let verifier: TestUser;
let otherVerifier: TestUser;
let admin: TestUser;
let investor: TestUser;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "tranche-field-"));
  t = await createTestApp({ DATA_DIR: dataDir });
  [owner, verifier, otherVerifier, admin, investor] = await Promise.all([
    t.user("project_owner"),
    t.user("verifier"),
    t.user("verifier"),
    t.user("admin"),
    t.user("investor"),
  ]);
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const sha = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const blobs = () => readdirSync(path.join(dataDir, "evidence")).filter((name) => !name.startsWith("."));
const temps = () =>
  (readdirSync(path.join(dataDir, "evidence", ".tmp"), { recursive: true }) as string[]).filter((f) =>
    f.endsWith(".part"),
  );

async function sitedProject(site: { latitude: number; longitude: number } | null = SITE) {
  const project = await makeProject(t, { owner, investors: [investor], verifiers: [verifier, otherVerifier] });
  if (site) {
    await t.deps.db
      .update(projects)
      .set({ siteLatitude: site.latitude, siteLongitude: site.longitude })
      .where(eq(projects.id, project.id));
  }
  return project;
}

interface Part {
  name: string;
  content: string | Buffer;
  capture?: { sha256?: string; latitude: number; longitude: number; accuracy?: number | null; capturedAt?: string };
}

function form(parts: Part[], extra: Record<string, string> = {}, withCaptures = true): FormData {
  const data = new FormData();
  for (const p of parts) data.append("files", new Blob([p.content]), p.name);
  if (withCaptures) {
    const captures = parts.map((p) =>
      p.capture
        ? {
            sha256: p.capture.sha256 ?? sha(p.content),
            latitude: p.capture.latitude,
            longitude: p.capture.longitude,
            accuracy: p.capture.accuracy ?? 8,
            capturedAt: p.capture.capturedAt ?? new Date().toISOString(),
          }
        : null,
    );
    data.append("captures", JSON.stringify(captures));
  }
  for (const [name, value] of Object.entries(extra)) data.append(name, value);
  return data;
}

const upload = (milestoneId: string, as: TestUser, raw: FormData, headers: Record<string, string> = {}) =>
  t.request("POST", `/api/milestones/${milestoneId}/evidence`, { as, raw, headers });
const post = (p: string, as: TestUser, body?: unknown, headers: Record<string, string> = {}) =>
  t.request("POST", p, { as, body, headers });
const evidenceOf = (milestoneId: string) =>
  t.deps.db.select().from(evidence).where(eq(evidence.milestoneId, milestoneId));

describe("site coordinates", () => {
  const base = { name: "Sited", description: "Has a site.", location: "Paris, France", totalCapital: 1000 };

  it("are stored on create, read back on the project and changed by its owner", async () => {
    const created = await post("/api/projects", owner, { ...base, siteLatitude: 48.85837, siteLongitude: 2.294481 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ siteLatitude: 48.85837, siteLongitude: 2.294481 });
    const read = await t.request("GET", `/api/projects/${created.body.id}`, { as: owner });
    expect(read.body).toMatchObject({ siteLatitude: 48.85837, siteLongitude: 2.294481 });
    // One coordinate alone moves that coordinate of the stored pair.
    const moved = await t.request("PATCH", `/api/projects/${created.body.id}`, {
      as: owner,
      body: { siteLatitude: -33.8568 },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ siteLatitude: -33.8568, siteLongitude: 2.294481 });
    const byAdmin = await t.request("PATCH", `/api/projects/${created.body.id}`, {
      as: admin,
      body: { siteLatitude: null, siteLongitude: null },
    });
    expect(byAdmin.body).toMatchObject({ siteLatitude: null, siteLongitude: null });
    const list = await t.request("GET", "/api/projects?sort=newest", { as: owner });
    expect(list.body.items.find((p: { id: string }) => p.id === created.body.id)).toMatchObject({ siteLatitude: null });
  });

  it("refuse half a pair and out-of-range degrees with 400 naming the field; nothing is stored", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ siteLatitude: 48.8 }, "siteLongitude", "Give the site's latitude and longitude together, or neither."],
      [{ siteLongitude: 2.3 }, "siteLatitude", "Give the site's latitude and longitude together, or neither."],
      [{ siteLatitude: 91, siteLongitude: 2 }, "siteLatitude", "Site latitude must be from -90 to 90 degrees."],
      [
        { siteLatitude: 10, siteLongitude: -180.5 },
        "siteLongitude",
        "Site longitude must be from -180 to 180 degrees.",
      ],
      [
        { siteLatitude: "48.8", siteLongitude: 2 },
        "siteLatitude",
        "Site latitude must be a number of degrees from -90 to 90.",
      ],
    ];
    for (const [site, field, message] of cases) {
      const res = await post("/api/projects", owner, { ...base, name: `Refused ${field}`, ...site });
      expect(res.status, JSON.stringify(site)).toBe(400);
      expect(res.body.error.details[field]).toBe(message);
    }
    const none = await t.deps.db.select().from(projects).where(eq(projects.name, "Refused siteLatitude"));
    expect(none).toEqual([]);

    const project = await sitedProject(null);
    const half = await t.request("PATCH", `/api/projects/${project.id}`, { as: owner, body: { siteLatitude: 10 } });
    expect(half.status).toBe(400);
    expect(half.body.error.details.siteLongitude).toBe("Give the site's latitude and longitude together, or neither.");
    const clearOne = await t.request("PATCH", `/api/projects/${(await sitedProject()).id}`, {
      as: owner,
      body: { siteLongitude: null },
    });
    expect(clearOne.status).toBe(400);
    expect(clearOne.body.error.details.siteLongitude).toBeDefined();
    const [row] = await t.deps.db.select().from(projects).where(eq(projects.id, project.id));
    expect(row.siteLatitude).toBeNull();
  });

  it("may be edited by the owner and admins only", async () => {
    const project = await sitedProject();
    for (const who of [verifier, investor]) {
      const res = await t.request("PATCH", `/api/projects/${project.id}`, {
        as: who,
        body: { siteLatitude: 1, siteLongitude: 1 },
      });
      expect(res.status).toBe(403);
    }
  });
});

describe("captures", () => {
  it("stores each file's tags, its distance to the site, and flags one taken 5 km away", async () => {
    const project = await sitedProject();
    const milestone = await makeMilestone(t, project, { status: "in_verification", verifier });
    const near = { name: "gate.jpg", content: Buffer.alloc(3000, 1), capture: { ...NEAR, accuracy: 6 } };
    const far = { name: "elsewhere.jpg", content: Buffer.alloc(3000, 2), capture: { ...FAR, accuracy: 12 } };
    const res = await upload(milestone.id, verifier, form([near, far]));
    expect(res.status).toBe(201);
    const [a, b] = res.body.items;
    expect(a.capture).toMatchObject({ latitude: NEAR.latitude, longitude: NEAR.longitude, accuracy: 6 });
    expect(a.capture.distanceToSiteM).toBeCloseTo(distanceMeters(NEAR, SITE), 3);
    expect(a.capture.distanceToSiteM).toBeLessThan(100);
    expect(a.flags).toEqual([]);
    expect(b.capture.distanceToSiteM).toBeGreaterThan(4900);
    expect(b.capture.distanceToSiteM).toBeLessThan(5100);
    expect(b.flags).toEqual([
      expect.objectContaining({
        code: "far_from_site",
        severity: "high",
        dismissed: false,
        message: expect.stringContaining("from the project's site, farther than the 1,000 m allowed"),
      }),
    ]);
    // Read back by everyone who can see the evidence, the owner included.
    const listed = await t.request("GET", `/api/milestones/${milestone.id}/evidence`, { as: owner });
    const codes = (listed.body.items as { originalName: string; flags: { code: string }[] }[]).map((e) => [
      e.originalName,
      e.flags.map((f) => f.code),
    ]);
    expect(Object.fromEntries(codes)).toEqual({ "gate.jpg": [], "elsewhere.jpg": ["far_from_site"] });
    const [flag] = await t.deps.db.select().from(evidenceFlags).where(eq(evidenceFlags.evidenceId, b.id));
    expect(flag.source).toBe("capture");
    const [event] = await t.deps.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "evidence.uploaded"), eq(auditEvents.entityId, b.id)));
    expect(event.after).toMatchObject({ capture: { latitude: FAR.latitude }, flags: ["far_from_site"] });
  });

  it("flags a capture from before the window opened, and one dated after its own upload", async () => {
    const project = await sitedProject();
    const milestone = await makeMilestone(t, project, { status: "in_verification", verifier });
    // The project started 10 days ago (the factory), the milestone was created now.
    const old = { name: "old.jpg", content: "old", capture: { ...NEAR, capturedAt: daysFromNow(-40) + "T09:00:00Z" } };
    const future = {
      name: "future.jpg",
      content: "future",
      capture: { ...NEAR, capturedAt: new Date(Date.now() + 3_600_000).toISOString() },
    };
    const plain = { name: "plain.pdf", content: "no tags" };
    const res = await upload(milestone.id, verifier, form([old, future, plain]));
    expect(res.status).toBe(201);
    const [o, f, p] = res.body.items;
    expect(o.flags).toEqual([
      expect.objectContaining({
        code: "outside_window",
        severity: "medium",
        message: expect.stringContaining("before the milestone's verification window opened"),
      }),
    ]);
    expect(f.flags[0].message).toContain("later than it was uploaded");
    expect(p.capture).toBeNull();
    expect(p.flags).toEqual([]);
  });

  it("stores tags without a distance when the project has no site coordinates", async () => {
    const project = await sitedProject(null);
    const milestone = await makeMilestone(t, project, { status: "in_verification", verifier });
    const res = await upload(milestone.id, verifier, form([{ name: "a.jpg", content: "a", capture: FAR }]));
    expect(res.status).toBe(201);
    expect(res.body.items[0].capture).toMatchObject({ latitude: FAR.latitude, distanceToSiteM: null });
    expect(res.body.items[0].flags).toEqual([]);
  });

  it("says whose device captured a file: the verifier's on site, or the owner's own statement", async () => {
    const project = await sitedProject();
    const milestone = await makeMilestone(t, project);
    const byOwner = await upload(milestone.id, owner, form([{ name: "owner.jpg", content: "o", capture: NEAR }]));
    const byVerifier = await upload(
      milestone.id,
      verifier,
      form([{ name: "verifier.jpg", content: "v", capture: NEAR }]),
    );
    expect(byOwner.status).toBe(201);
    expect(byVerifier.status).toBe(201);
    expect(byOwner.body.items[0].capture).toMatchObject({ by: "owner", latitude: NEAR.latitude });
    expect(byVerifier.body.items[0].capture).toMatchObject({ by: "verifier", latitude: NEAR.latitude });
    // Read back the same by everyone who sees the evidence.
    const listed = await t.request("GET", `/api/milestones/${milestone.id}/evidence`, { as: investor });
    const by = (listed.body.items as { originalName: string; capture: { by: string } }[]).map((e) => [
      e.originalName,
      e.capture.by,
    ]);
    expect(Object.fromEntries(by)).toEqual({ "owner.jpg": "owner", "verifier.jpg": "verifier" });
  });

  it("refuses a tampered capture with 422 hash_mismatch and stores nothing of the upload", async () => {
    const project = await sitedProject();
    const milestone = await makeMilestone(t, project, { status: "in_verification", verifier });
    const blobsBefore = blobs();
    const good = { name: "good.jpg", content: "the photo as taken", capture: NEAR };
    const tampered = {
      name: "tampered.jpg",
      content: "the photo, edited after capture",
      capture: { ...NEAR, sha256: sha("the photo as captured") },
    };
    const res = await upload(milestone.id, verifier, form([good, tampered]));
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("hash_mismatch");
    expect(res.body.error.details).toMatchObject({
      file: "tampered.jpg",
      index: 1,
      expected: sha("the photo as captured"),
      received: sha("the photo, edited after capture"),
    });
    expect(await evidenceOf(milestone.id)).toEqual([]);
    expect(blobs()).toEqual(blobsBefore);
    expect(temps()).toEqual([]);
    const events = await t.deps.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "evidence.uploaded"), eq(auditEvents.projectId, project.id)));
    expect(events).toEqual([]);
  });

  it("refuses malformed captures with 400 naming the field, storing nothing", async () => {
    const project = await sitedProject();
    const milestone = await makeMilestone(t, project, { status: "in_verification", verifier });
    const file = { name: "a.jpg", content: "a" };
    const cases: [FormData, string, string][] = [
      [form([file], { captures: "not json" }, false), "captures", "captures must be a JSON array."],
      [
        form([file, { ...file, name: "b.jpg", content: "b" }], { captures: "[]" }, false),
        "captures",
        "captures must have one entry per file, in order: 2 files, 0 entries.",
      ],
      [
        form([{ ...file, capture: { latitude: 95, longitude: 0 } }]),
        "captures.0.latitude",
        "Latitude must be from -90 to 90 degrees.",
      ],
      [
        form(
          [file],
          { captures: JSON.stringify([{ sha256: sha("a"), latitude: 1, longitude: 1, capturedAt: "yesterday" }]) },
          false,
        ),
        "captures.0.capturedAt",
        "capturedAt must be a date and time (ISO 8601).",
      ],
      [form([file], { sneaky: "x" }, false), "sneaky", "Unknown field."],
    ];
    for (const [data, field, message] of cases) {
      const res = await upload(milestone.id, verifier, data);
      expect(res.status, field).toBe(400);
      expect(res.body.error.details[field]).toBe(message);
    }
    expect(await evidenceOf(milestone.id)).toEqual([]);
    expect(temps()).toEqual([]);
  });

  it("keeps a dismissed flag dismissed when the same code is raised again", async () => {
    const project = await sitedProject();
    const milestone = await makeMilestone(t, project, { status: "in_verification", verifier });
    const res = await upload(milestone.id, verifier, form([{ name: "far.jpg", content: "far", capture: FAR }]));
    const id = res.body.items[0].id;
    const dismissedAt = new Date();
    await t.deps.db
      .update(evidenceFlags)
      .set({ dismissedAt, dismissedBy: admin.id, dismissReason: "The site spans both banks." })
      .where(eq(evidenceFlags.evidenceId, id));
    await t.deps.db.transaction((tx) =>
      raiseCaptureFlags(tx, id, [{ code: "far_from_site", severity: "high", message: "Raised again." }], {}),
    );
    const [flag] = await t.deps.db.select().from(evidenceFlags).where(eq(evidenceFlags.evidenceId, id));
    expect(flag).toMatchObject({ dismissedBy: admin.id, dismissReason: "The site spans both banks." });
    expect(flag.message).not.toBe("Raised again.");
    // A standing flag is updated in place: still one per code.
    await t.deps.db.transaction((tx) =>
      raiseCaptureFlags(tx, id, [{ code: "outside_window", severity: "medium", message: "First." }], {}),
    );
    await t.deps.db.transaction((tx) =>
      raiseCaptureFlags(tx, id, [{ code: "outside_window", severity: "medium", message: "Second." }], {}),
    );
    const window = await t.deps.db
      .select()
      .from(evidenceFlags)
      .where(and(eq(evidenceFlags.evidenceId, id), eq(evidenceFlags.code, "outside_window")));
    expect(window.map((f) => f.message)).toEqual(["Second."]);
  });
});

describe("Idempotency-Key on what the offline queue replays", () => {
  it("answers a repeated upload with the first answer and stores it once", async () => {
    const project = await sitedProject();
    const milestone = await makeMilestone(t, project, { status: "in_verification", verifier });
    // A retry sends what the queue kept: the same files with the same tags.
    const parts = [{ name: "once.jpg", content: "once", capture: { ...NEAR, capturedAt: new Date().toISOString() } }];
    const headers = { "Idempotency-Key": `evidence-${milestone.id}` };
    const first = await upload(milestone.id, verifier, form(parts), headers);
    const again = await upload(milestone.id, verifier, form(parts), headers);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await evidenceOf(milestone.id)).toHaveLength(1);
    expect(temps()).toEqual([]);
    // The same key with another file is another request: refused, and the file is not dropped behind a 201.
    const otherFile = await upload(milestone.id, verifier, form([{ ...parts[0], content: "twice" }]), headers);
    expect(otherFile.status).toBe(409);
    expect(await evidenceOf(milestone.id)).toHaveLength(1);
    expect(temps()).toEqual([]);
    // The key is the verifier's own: another person's identical key is another request.
    const project2 = await sitedProject();
    const byOwner = await upload(milestone.id, owner, form(parts), headers);
    expect(byOwner.status).toBe(201);
    expect(byOwner.headers.get("idempotent-replayed")).toBeNull();
    expect(await evidenceOf(milestone.id)).toHaveLength(2);
    // The same key for another milestone is refused, and stores nothing.
    const other = await makeMilestone(t, project2, { status: "in_verification", verifier });
    const reused = await upload(other.id, verifier, form(parts), headers);
    expect(reused.status).toBe(409);
    expect(await evidenceOf(other.id)).toEqual([]);
  });

  it("answers a repeated rejection and checklist with their first answers, acting once", async () => {
    const project = await sitedProject();
    const milestone = await makeMilestone(t, project, { status: "in_verification", verifier });
    const checklist = {
      documentation: true,
      compliance: true,
      quality: false,
      timeline: false,
      budget: false,
      risk: false,
      notes: { documentation: "Permits on the site office wall.", quality: "Cracks in the east slab." },
    };
    const put = (headers: Record<string, string>) =>
      t.request("PUT", `/api/milestones/${milestone.id}/checklist`, { as: verifier, body: checklist, headers });
    const saved = await put({ "Idempotency-Key": "checklist-1" });
    expect(saved.status).toBe(200);
    expect(saved.body.checklistNotes).toEqual(checklist.notes);
    expect((await put({ "Idempotency-Key": "checklist-1" })).headers.get("idempotent-replayed")).toBe("true");

    const headers = { "Idempotency-Key": "reject-1" };
    const first = await post(
      `/api/milestones/${milestone.id}/reject`,
      verifier,
      { comments: "Slab cracked." },
      headers,
    );
    expect(first.status).toBe(200);
    const again = await post(
      `/api/milestones/${milestone.id}/reject`,
      verifier,
      { comments: "Slab cracked." },
      headers,
    );
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    const decisions = await t.deps.db
      .select()
      .from(verificationDecisions)
      .where(eq(verificationDecisions.milestoneId, milestone.id));
    expect(decisions.map((d) => d.kind)).toEqual(["reject"]);
    // Without the key, a second rejection is what it is: the milestone is already rejected.
    const plain = await post(`/api/milestones/${milestone.id}/reject`, verifier, { comments: "Slab cracked." });
    expect(plain.status).toBe(409);
  });
});

describe("a decision against a stale round", () => {
  /** Round 1 in verification, rejected, resubmitted by the owner, started again: now round 2. */
  async function movedOn() {
    const project = await sitedProject();
    const milestone = await makeMilestone(t, project, { status: "in_verification", verifier });
    const seen = (await t.request("GET", `/api/milestones/${milestone.id}/verification`, { as: verifier })).body;
    expect(seen).toMatchObject({ round: 1, quorum: { policyVersion: 0 } });
    expect((await post(`/api/milestones/${milestone.id}/reject`, verifier, { comments: "Redo." })).status).toBe(200);
    expect((await post(`/api/milestones/${milestone.id}/resubmit`, owner)).status).toBe(200);
    expect((await post(`/api/milestones/${milestone.id}/start`, verifier, {})).status).toBe(200);
    return { project, milestone };
  }

  it("is refused with 409 stale_round and never releases; the current round is accepted", async () => {
    const { milestone } = await movedOn();
    const stale = await post(
      `/api/milestones/${milestone.id}/approve`,
      verifier,
      { comments: "Approved offline.", round: 1, policyVersion: 0 },
      { "Idempotency-Key": "offline-approve-1" },
    );
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("stale_round");
    expect(stale.body.error.details).toMatchObject({ round: { seen: 1, current: 2 }, status: "in_verification" });
    // Sent again (the queue after a reconnect): still refused, still nothing released.
    const replay = await post(
      `/api/milestones/${milestone.id}/approve`,
      verifier,
      { comments: "Approved offline.", round: 1, policyVersion: 0 },
      { "Idempotency-Key": "offline-approve-1" },
    );
    expect(replay.status).toBe(409);
    expect(await t.deps.db.select().from(disbursements).where(eq(disbursements.milestoneId, milestone.id))).toEqual([]);
    const [row] = await t.deps.db.select().from(milestones).where(eq(milestones.id, milestone.id));
    expect(row.status).toBe("in_verification");

    for (const [method, p, body] of [
      ["POST", "reject", { comments: "Offline.", round: 1 }],
      [
        "PUT",
        "checklist",
        { documentation: true, compliance: true, quality: true, timeline: true, budget: true, risk: true, round: 1 },
      ],
    ] as const) {
      const res = await t.request(method, `/api/milestones/${milestone.id}/${p}`, { as: verifier, body });
      expect(res.status, p).toBe(409);
      expect(res.body.error.code).toBe("stale_round");
    }
    const staleUpload = await upload(
      milestone.id,
      verifier,
      form([{ name: "x.jpg", content: "x", capture: NEAR }], { round: "1" }),
    );
    expect(staleUpload.status).toBe(409);
    // A round is written in decimal digits: "0x2", "2e0" or " 2 " name no round.
    for (const round of ["0x2", "2e0", " 2 ", "-2", "2.0"]) {
      const odd = await upload(
        milestone.id,
        verifier,
        form([{ name: "x.jpg", content: "x", capture: NEAR }], { round }),
      );
      expect(odd.status, round).toBe(400);
      expect(odd.body.error.details.round).toBe("Round must be a whole number of at least 1.");
    }
    expect(await evidenceOf(milestone.id)).toEqual([]);

    // Decided again on what the milestone is now: released exactly once.
    const fresh = await post(
      `/api/milestones/${milestone.id}/approve`,
      verifier,
      { comments: "Seen again.", round: 2, policyVersion: 0 },
      { "Idempotency-Key": "online-approve-2" },
    );
    expect(fresh.status).toBe(200);
    expect(fresh.body.status).toBe("verified");
    const retry = await post(
      `/api/milestones/${milestone.id}/approve`,
      verifier,
      { comments: "Seen again.", round: 2, policyVersion: 0 },
      { "Idempotency-Key": "online-approve-2" },
    );
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(
      await t.deps.db.select().from(disbursements).where(eq(disbursements.milestoneId, milestone.id)),
    ).toHaveLength(1);
  });

  it("is refused when the release policy changed since the verifier saw it", async () => {
    const project = await sitedProject();
    const milestone = await makeMilestone(t, project, { status: "in_verification", verifier });
    const changed = await t.request("PUT", `/api/projects/${project.id}/release-policy`, {
      as: admin,
      body: { requiredApprovals: 1, thresholds: [], distinctOrganizations: false, cosignAbove: null },
    });
    expect(changed.status).toBe(200);
    const res = await post(`/api/milestones/${milestone.id}/approve`, verifier, { round: 1, policyVersion: 0 });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("stale_round");
    expect(res.body.error.message).toContain("release policy");
    expect(await t.deps.db.select().from(disbursements).where(eq(disbursements.milestoneId, milestone.id))).toEqual([]);
  });

  it("refuses a malformed round with 400", async () => {
    const project = await sitedProject();
    const milestone = await makeMilestone(t, project, { status: "in_verification", verifier });
    const res = await post(`/api/milestones/${milestone.id}/approve`, verifier, { round: 0 });
    expect(res.status).toBe(400);
    expect(res.body.error.details.round).toBe("Round must be a whole number of at least 1.");
  });
});

describe("the field view's assignments", () => {
  it("lists what waits on the verifier, most urgent first, with the site and the round", async () => {
    const fieldVerifier = await t.user("verifier");
    const project = await makeProject(t, { owner, verifiers: [fieldVerifier], name: "Field project" });
    await t.deps.db.update(projects).set({ siteLatitude: 1.5, siteLongitude: 2.5 }).where(eq(projects.id, project.id));
    const fresh = await makeMilestone(t, project, { title: "New one", dueInDays: 40 });
    const soon = await makeMilestone(t, project, { title: "Due soon", dueInDays: 3 });
    const overdue = await makeMilestone(t, project, { title: "Overdue", dueInDays: -3 });
    const again = await makeMilestone(t, project, {
      title: "Resubmitted",
      dueInDays: 60,
      status: "in_verification",
      verifier: fieldVerifier,
    });
    expect((await post(`/api/milestones/${again.id}/reject`, fieldVerifier, { comments: "Missing." })).status).toBe(
      200,
    );
    expect((await post(`/api/milestones/${again.id}/resubmit`, owner)).status).toBe(200);
    await makeMilestone(t, project, { title: "Not mine", status: "in_verification", verifier: otherVerifier });

    const res = await t.request("GET", "/api/field/assignments", { as: fieldVerifier });
    expect(res.status).toBe(200);
    expect(res.body.items.map((a: { title: string; urgency: string }) => [a.title, a.urgency])).toEqual([
      ["Overdue", "overdue"],
      ["Due soon", "due_soon"],
      ["Resubmitted", "resubmitted"],
      ["New one", "new"],
    ]);
    expect(res.body.items[2]).toMatchObject({ round: 2, status: "pending", site: { latitude: 1.5, longitude: 2.5 } });
    expect(res.body.items.map((a: { milestoneId: string }) => a.milestoneId)).toEqual([
      overdue.id,
      soon.id,
      again.id,
      fresh.id,
    ]);

    const visit = await t.request("GET", `/api/field/assignments/${soon.id}`, { as: fieldVerifier });
    expect(visit.status).toBe(200);
    expect(visit.body).toMatchObject({
      assignment: { milestoneId: soon.id, urgency: "due_soon" },
      verification: { milestoneId: soon.id, round: 1, status: "pending", permissions: { canStart: true } },
      evidence: [],
      siteRadiusM: 1000,
    });
  });

  it("is the verifiers': others get 403, and a milestone outside their projects is not found", async () => {
    expect((await t.request("GET", "/api/field/assignments", { as: owner })).status).toBe(403);
    const project = await sitedProject();
    const milestone = await makeMilestone(t, project);
    const stranger = await t.user("verifier");
    expect((await t.request("GET", `/api/field/assignments/${milestone.id}`, { as: stranger })).status).toBe(404);
    expect((await t.request("GET", `/api/field/assignments/${milestone.id}`, { as: owner })).status).toBe(403);
  });
});
