// The milestone state machine (docs/domain.md "Milestone states"): every transition allowed
// and refused, for each role; refusals answer with the right status and change nothing.
import type { MilestoneStatus } from "@tranche/domain";
import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../src/db/client";
import { auditEvents, disbursements, milestones, notifications, projects } from "../src/db/schema";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

let t: TestApp;
let owner: TestUser;
let investor: TestUser;
let verifier: TestUser;
let otherVerifier: TestUser;
let outsider: TestUser;
let admin: TestUser;
let investingVerifier: TestUser;
let owningVerifier: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  [owner, investor, verifier, otherVerifier, outsider, admin, investingVerifier, owningVerifier] = await Promise.all([
    t.user("project_owner"),
    t.user("investor"),
    t.user("verifier"),
    t.user("verifier"),
    t.user("verifier"),
    t.user("admin"),
    t.user("verifier"),
    t.user("verifier"),
  ]);
});
afterAll(() => t.close());

/** A project with the full cast and one milestone in `status` (assigned to `verifier` once started). */
async function scenario(status: MilestoneStatus = "pending", options: { capitalAmount?: number } = {}) {
  const project = await makeProject(t, {
    owner,
    investors: [investor],
    verifiers: [verifier, otherVerifier],
    totalCapital: 1_000_000,
  });
  const milestone = await makeMilestone(t, project, {
    status,
    capitalAmount: options.capitalAmount ?? 250_000,
    verifier: status === "pending" || status === "delayed" ? undefined : verifier,
  });
  return { project, milestone };
}

async function milestoneRow(id: string) {
  const [row] = await t.deps.db.select().from(milestones).where(eq(milestones.id, id));
  return row;
}

async function stateOf(milestoneId: string, projectId: string): Promise<string> {
  const q = (text: string) => queryRows(t.deps.db, sql.raw(text));
  return JSON.stringify([
    await milestoneRow(milestoneId),
    await q(`select * from projects where id = '${projectId}'`),
    await q(`select count(*)::int as n from disbursements where project_id = '${projectId}'`),
    await q(`select count(*)::int as n from audit_events where project_id = '${projectId}'`),
    await q("select count(*)::int as n from notifications"),
  ]);
}

const post = (path: string, as: TestUser | null, body?: unknown, headers?: Record<string, string>) =>
  t.request("POST", path, { as, body, headers });

async function notificationsFor(userId: string, milestoneId: string) {
  return t.deps.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), sql`${notifications.subject}->>'milestoneId' = ${milestoneId}`));
}

async function auditActions(milestoneId: string): Promise<string[]> {
  const rows = await t.deps.db
    .select({ action: auditEvents.action })
    .from(auditEvents)
    .where(and(eq(auditEvents.entityType, "milestone"), eq(auditEvents.entityId, milestoneId)))
    .orderBy(auditEvents.id);
  return rows.map((r) => r.action);
}

describe("start and resume (pending|delayed → in_verification)", () => {
  it("lets a verifier of the project start a pending milestone, making them its verifier", async () => {
    const { milestone } = await scenario("pending");
    const res = await post(`/api/milestones/${milestone.id}/start`, verifier);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: "in_verification",
      verifierId: verifier.id,
      verifierName: verifier.name,
      progress: 25,
      permissions: { canDecide: true, canStart: false },
    });
    const row = await milestoneRow(milestone.id);
    expect(row.status).toBe("in_verification");
    expect(row.verifierId).toBe(verifier.id);
    expect(row.startedAt).toBeInstanceOf(Date);
    expect(await auditActions(milestone.id)).toEqual(["milestone.verification_started"]);

    // Owner and investors hear of it; the actor does not.
    for (const user of [owner, investor]) {
      const [n] = await notificationsFor(user.id, milestone.id);
      expect(n).toMatchObject({ category: "verification", link: `/milestones/${milestone.id}?tab=verification` });
      expect(n.subject).toEqual({ projectId: milestone.projectId, milestoneId: milestone.id });
    }
    expect(await notificationsFor(verifier.id, milestone.id)).toHaveLength(0);
  });

  it("resumes a delayed milestone", async () => {
    const { milestone } = await scenario("delayed");
    const res = await post(`/api/milestones/${milestone.id}/start`, otherVerifier);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "in_verification", verifierId: otherVerifier.id });
    expect(await auditActions(milestone.id)).toEqual(["milestone.verification_resumed"]);
  });

  it.each([
    ["the owner", () => owner, 403],
    ["an investor", () => investor, 403],
    ["an admin", () => admin, 403],
    ["a verifier of another project", () => outsider, 404],
    ["a signed-out caller", () => null, 401],
  ])("refuses %s with %i and changes nothing", async (_who, who, status) => {
    const { milestone, project } = await scenario("pending");
    const before = await stateOf(milestone.id, project.id);
    const res = await post(`/api/milestones/${milestone.id}/start`, who());
    expect(res.status).toBe(status);
    expect(await stateOf(milestone.id, project.id)).toBe(before);
  });

  it("refuses a verifier who invests in or owns the project (separation of duties)", async () => {
    const invested = await makeProject(t, { owner, investors: [investingVerifier], verifiers: [investingVerifier] });
    const owned = await makeProject(t, { owner: owningVerifier, verifiers: [owningVerifier] });
    for (const [project, who] of [
      [invested, investingVerifier],
      [owned, owningVerifier],
    ] as const) {
      const milestone = await makeMilestone(t, project);
      const before = await stateOf(milestone.id, project.id);
      const res = await post(`/api/milestones/${milestone.id}/start`, who);
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe("You own or invest in this project, so you cannot verify it.");
      expect(await stateOf(milestone.id, project.id)).toBe(before);
    }
  });

  it.each([
    ["in_verification", "Milestone is in verification; it cannot be started."],
    ["verified", "Milestone is verified; it cannot be started."],
    ["rejected", "Milestone is rejected; it cannot be started."],
  ] as const)("answers 409 naming the status when the milestone is %s", async (status, message) => {
    const { milestone, project } = await scenario(status);
    const before = await stateOf(milestone.id, project.id);
    // Another verifier: the one who started it is answered with the current state (a repeated start).
    const res = await post(`/api/milestones/${milestone.id}/start`, otherVerifier);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: "conflict", message, details: { status } });
    expect(await stateOf(milestone.id, project.id)).toBe(before);
  });

  it("answers 404 for an id that is not a milestone", async () => {
    expect((await post("/api/milestones/not-a-uuid/start", verifier)).status).toBe(404);
    expect((await post("/api/milestones/00000000-0000-4000-8000-000000000000/start", verifier)).status).toBe(404);
  });
});

describe("approve (in_verification → verified)", () => {
  it("verifies, releases the capital once, recomputes the project and records it", async () => {
    const { milestone, project } = await scenario("in_verification", { capitalAmount: 250_000 });
    const res = await post(`/api/milestones/${milestone.id}/approve`, verifier, {
      comments: "All documents check out.",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "verified", comments: "All documents check out.", progress: 100 });
    expect(res.body.verificationDate).toBeTruthy();

    const releases = await t.deps.db.select().from(disbursements).where(eq(disbursements.milestoneId, milestone.id));
    expect(releases).toHaveLength(1);
    expect(releases[0]).toMatchObject({ projectId: project.id, currency: "USD", releasedBy: verifier.id });
    expect(Number(releases[0].amount)).toBe(250_000);
    // The custodian is instructed as the release is made, not at the start of the approval's transaction.
    expect(releases[0].instructedAt).toEqual(releases[0].releasedAt);
    const [p] = await t.deps.db.select({ status: projects.status }).from(projects).where(eq(projects.id, project.id));
    expect(p.status).toBe("verified");
    expect(await auditActions(milestone.id)).toEqual(["milestone.approved"]);
    const [event] = await t.deps.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, milestone.id), eq(auditEvents.action, "milestone.approved")));
    expect(event.actorId).toBe(verifier.id);
    expect(event.before).toMatchObject({ status: "in_verification" });
    expect(event.after).toMatchObject({ status: "verified", release: { amount: 250_000, currency: "USD" } });
    for (const user of [owner, investor]) {
      const rows = await notificationsFor(user.id, milestone.id);
      expect(rows.map((n) => n.title)).toContain("Milestone verified");
    }

    // A second approval finds it verified: 409, and still one release.
    const again = await post(`/api/milestones/${milestone.id}/approve`, verifier);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe("Milestone is verified; it cannot be approved.");
    const [{ n }] = await t.deps.db
      .select({ n: count() })
      .from(disbursements)
      .where(eq(disbursements.milestoneId, milestone.id));
    expect(n).toBe(1);
  });

  it("accepts no body at all (comments are optional)", async () => {
    const { milestone } = await scenario("in_verification");
    const res = await post(`/api/milestones/${milestone.id}/approve`, verifier);
    expect(res.status).toBe(200);
    expect(res.body.comments).toBeNull();
  });

  it.each([
    ["another verifier of the project", () => otherVerifier, 403],
    ["the owner", () => owner, 403],
    ["an investor", () => investor, 403],
    ["an admin", () => admin, 403],
    ["a verifier of another project", () => outsider, 404],
    ["a signed-out caller", () => null, 401],
  ])("refuses %s with %i and releases nothing", async (_who, who, status) => {
    const { milestone, project } = await scenario("in_verification");
    const before = await stateOf(milestone.id, project.id);
    const res = await post(`/api/milestones/${milestone.id}/approve`, who(), {});
    expect(res.status).toBe(status);
    expect(await stateOf(milestone.id, project.id)).toBe(before);
  });

  it.each([
    ["pending", "Milestone is pending; it cannot be approved."],
    ["rejected", "Milestone is rejected; it cannot be approved."],
    ["delayed", "Milestone is delayed; it cannot be approved."],
  ] as const)("answers 409 from %s", async (status, message) => {
    const { milestone, project } = await scenario(status);
    const before = await stateOf(milestone.id, project.id);
    const res = await post(`/api/milestones/${milestone.id}/approve`, verifier, {});
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe(message);
    expect(await stateOf(milestone.id, project.id)).toBe(before);
  });

  it("replays the original answer to a retry with the same Idempotency-Key", async () => {
    const { milestone } = await scenario("in_verification");
    const headers = { "Idempotency-Key": `approve-${milestone.id}` };
    const first = await post(`/api/milestones/${milestone.id}/approve`, verifier, { comments: "Fine." }, headers);
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const retry = await post(`/api/milestones/${milestone.id}/approve`, verifier, { comments: "Fine." }, headers);
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.body).toEqual(first.body);
    // A different request (another key, or none) finds it verified.
    const other = await post(`/api/milestones/${milestone.id}/approve`, verifier, {}, { "Idempotency-Key": "other" });
    expect(other.status).toBe(409);
    // The same key for another milestone is a different request.
    const { milestone: second } = await scenario("in_verification");
    const reused = await post(`/api/milestones/${second.id}/approve`, verifier, {}, headers);
    expect(reused.status).toBe(409);
    expect((await milestoneRow(second.id)).status).toBe("in_verification");
    expect(await auditActions(milestone.id)).toEqual(["milestone.approved"]);
  });

  it("refuses a malformed Idempotency-Key and over-long comments with 400", async () => {
    const { milestone } = await scenario("in_verification");
    const bad = await post(
      `/api/milestones/${milestone.id}/approve`,
      verifier,
      {},
      { "Idempotency-Key": "x".repeat(201) },
    );
    expect(bad.status).toBe(400);
    const long = await post(`/api/milestones/${milestone.id}/approve`, verifier, { comments: "x".repeat(5001) });
    expect(long.status).toBe(400);
    expect(long.body.error.details.comments).toBe("Comments must be at most 5000 characters.");
    const unknown = await post(`/api/milestones/${milestone.id}/approve`, verifier, { status: "verified" });
    expect(unknown.status).toBe(400);
    expect((await milestoneRow(milestone.id)).status).toBe("in_verification");
  });
});

describe("reject (in_verification → rejected)", () => {
  it("requires a comment: 400 with the field message, nothing changed", async () => {
    const { milestone, project } = await scenario("in_verification");
    const before = await stateOf(milestone.id, project.id);
    for (const body of [{}, { comments: "   " }]) {
      const res = await post(`/api/milestones/${milestone.id}/reject`, verifier, body);
      expect(res.status).toBe(400);
      expect(res.body.error.details.comments).toBe("A reason for the rejection is required.");
    }
    expect(await stateOf(milestone.id, project.id)).toBe(before);
  });

  it("rejects with the reason, puts the project at risk and tells owner and investors", async () => {
    const { milestone, project } = await scenario("in_verification");
    const res = await post(`/api/milestones/${milestone.id}/reject`, verifier, { comments: "Certificate missing." });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "rejected", comments: "Certificate missing.", progress: 100 });
    const [p] = await t.deps.db.select({ status: projects.status }).from(projects).where(eq(projects.id, project.id));
    expect(p.status).toBe("at_risk");
    expect(await auditActions(milestone.id)).toEqual(["milestone.rejected"]);
    const [n] = await notificationsFor(owner.id, milestone.id);
    expect(n).toMatchObject({ title: "Milestone rejected", category: "verification" });
    expect(n.message).toContain("Certificate missing.");
    const [{ n: released }] = await t.deps.db
      .select({ n: count() })
      .from(disbursements)
      .where(eq(disbursements.projectId, project.id));
    expect(released).toBe(0);
  });

  it.each([
    ["another verifier", () => otherVerifier, 403],
    ["the owner", () => owner, 403],
    ["an admin", () => admin, 403],
    ["an outsider", () => outsider, 404],
  ])("refuses %s with %i", async (_who, who, status) => {
    const { milestone, project } = await scenario("in_verification");
    const before = await stateOf(milestone.id, project.id);
    const res = await post(`/api/milestones/${milestone.id}/reject`, who(), { comments: "No." });
    expect(res.status).toBe(status);
    expect(await stateOf(milestone.id, project.id)).toBe(before);
  });

  it("answers 409 from pending and verified", async () => {
    for (const status of ["pending", "verified"] as const) {
      const { milestone } = await scenario(status);
      const res = await post(`/api/milestones/${milestone.id}/reject`, verifier, { comments: "No." });
      expect(res.status).toBe(409);
      expect(res.body.error.message).toBe(`Milestone is ${status}; it cannot be rejected.`);
    }
  });
});

describe("the owner's resubmission (rejected → pending) and delay (pending|rejected → delayed)", () => {
  it("resubmits a rejected milestone and tells the assigned verifier and the investors", async () => {
    const { milestone } = await scenario("rejected");
    const res = await post(`/api/milestones/${milestone.id}/resubmit`, owner);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "pending", verifierId: verifier.id, progress: 0 });
    const [n] = await notificationsFor(verifier.id, milestone.id);
    expect(n).toMatchObject({ title: "Milestone resubmitted", category: "milestone" });
    // Told of the rejection (capital withheld), the investors are told it is back for verification.
    const [told] = await notificationsFor(investor.id, milestone.id);
    expect(told).toMatchObject({ title: "Milestone resubmitted", category: "milestone" });
    expect(await auditActions(milestone.id)).toEqual(["milestone.resubmitted"]);
  });

  it.each([
    ["the verifier", () => verifier, 403],
    ["an investor", () => investor, 403],
    ["an admin", () => admin, 403],
    ["an outsider", () => outsider, 404],
  ])("refuses a resubmission by %s with %i", async (_who, who, status) => {
    const { milestone, project } = await scenario("rejected");
    const before = await stateOf(milestone.id, project.id);
    expect((await post(`/api/milestones/${milestone.id}/resubmit`, who())).status).toBe(status);
    expect(await stateOf(milestone.id, project.id)).toBe(before);
  });

  it.each(["pending", "in_verification", "verified", "delayed"] as const)(
    "refuses to resubmit a %s milestone with 409",
    async (status) => {
      const { milestone } = await scenario(status);
      const res = await post(`/api/milestones/${milestone.id}/resubmit`, owner);
      expect(res.status).toBe(409);
      expect(res.body.error.message).toBe(`Milestone is ${status.replace("_", " ")}; it cannot be resubmitted.`);
    },
  );

  it("delays pending and rejected milestones, telling investors and the assigned verifier", async () => {
    for (const status of ["pending", "rejected"] as const) {
      const { milestone } = await scenario(status);
      const res = await post(`/api/milestones/${milestone.id}/delay`, owner);
      expect(res.status).toBe(200);
      expect(res.body.status).toBe("delayed");
      expect((await notificationsFor(investor.id, milestone.id))[0]).toMatchObject({
        title: "Milestone delayed",
        category: "milestone",
      });
      expect(await notificationsFor(verifier.id, milestone.id)).toHaveLength(status === "rejected" ? 1 : 0);
      expect(await notificationsFor(owner.id, milestone.id)).toHaveLength(0);
    }
  });

  it("refuses to delay from in_verification, verified and delayed, and refuses non-owners", async () => {
    for (const status of ["in_verification", "verified", "delayed"] as const) {
      const { milestone } = await scenario(status);
      const res = await post(`/api/milestones/${milestone.id}/delay`, owner);
      expect(res.status).toBe(409);
      expect(res.body.error.message).toBe(`Milestone is ${status.replace("_", " ")}; it cannot be delayed.`);
    }
    const { milestone } = await scenario("pending");
    expect((await post(`/api/milestones/${milestone.id}/delay`, verifier)).status).toBe(403);
    expect((await post(`/api/milestones/${milestone.id}/delay`, investor)).status).toBe(403);
    expect((await post(`/api/milestones/${milestone.id}/delay`, outsider)).status).toBe(404);
    expect((await milestoneRow(milestone.id)).status).toBe("pending");
  });
});

describe("checklist and verification progress", () => {
  const items = { documentation: true, compliance: true, quality: true, timeline: false, budget: false, risk: false };

  it("stores the checklist and reports progress 25 + 75 × checked share", async () => {
    const { milestone } = await scenario("in_verification");
    const res = await t.request("PUT", `/api/milestones/${milestone.id}/checklist`, { as: verifier, body: items });
    expect(res.status).toBe(200);
    expect(res.body.checklist).toEqual(items);
    expect(res.body.progress).toBe(63);
    const all = Object.fromEntries(Object.keys(items).map((k) => [k, true]));
    const full = await t.request("PUT", `/api/milestones/${milestone.id}/checklist`, { as: verifier, body: all });
    expect(full.body.progress).toBe(100);
    const view = await t.request("GET", `/api/milestones/${milestone.id}/verification`, { as: owner });
    expect(view.body).toMatchObject({ checklist: all, progress: 100, permissions: { canDecide: false } });
  });

  it("names the checklist item a body leaves out or gives as other than true or false", async () => {
    const { milestone } = await scenario("in_verification");
    const { risk: _left, ...without } = items;
    const res = await t.request("PUT", `/api/milestones/${milestone.id}/checklist`, {
      as: verifier,
      body: { ...without, budget: "yes" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual({
      budget: '"Budget utilization validated" must be true or false.',
      risk: '"Risk assessment completed" is required.',
    });
  });

  it("refuses bad input with 400, other people with 403/404 and the wrong status with 409", async () => {
    const { milestone } = await scenario("in_verification");
    const put = (as: TestUser, body: unknown) =>
      t.request("PUT", `/api/milestones/${milestone.id}/checklist`, { as, body });
    const bad = await put(verifier, { ...items, risk: "yes" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.risk).toBeTruthy();
    expect((await put(verifier, { ...items, extra: true })).status).toBe(400);
    expect((await put(otherVerifier, items)).status).toBe(403);
    expect((await put(owner, items)).status).toBe(403);
    expect((await put(outsider, items)).status).toBe(404);
    const { milestone: pending } = await scenario("pending");
    const refused = await t.request("PUT", `/api/milestones/${pending.id}/checklist`, { as: verifier, body: items });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe("Milestone is pending; it cannot be checked.");
  });
});

describe("verification report", () => {
  it("is refused before a decision and stored after one, visible to the project's members", async () => {
    const { milestone } = await scenario("in_verification");
    const early = await post(`/api/milestones/${milestone.id}/report`, verifier, {});
    expect(early.status).toBe(409);
    await post(`/api/milestones/${milestone.id}/approve`, verifier, { comments: "Good work." });
    expect((await post(`/api/milestones/${milestone.id}/report`, owner, {})).status).toBe(403);
    const res = await post(`/api/milestones/${milestone.id}/report`, verifier, {});
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      milestoneId: milestone.id,
      status: "verified",
      comments: "Good work.",
      evidence: [],
      submittedBy: { id: verifier.id },
    });
    const seen = await t.request("GET", "/api/reports", { as: investor });
    expect(seen.body.items.map((r: { id: string }) => r.id)).toContain(res.body.id);
    const hidden = await t.request("GET", "/api/reports", { as: outsider });
    expect(hidden.body.items.map((r: { id: string }) => r.id)).not.toContain(res.body.id);
  });

  it("lists the evidence the decision was made on, not a file the owner added after it", async () => {
    const { milestone } = await scenario("in_verification");
    const upload = (name: string) => {
      const files = new FormData();
      files.append("files", new Blob([name], { type: "text/plain" }), name);
      return t.request("POST", `/api/milestones/${milestone.id}/evidence`, { as: owner, raw: files });
    };
    expect((await upload("invoices.txt")).status).toBe(201);
    await post(`/api/milestones/${milestone.id}/reject`, verifier, { comments: "The invoices do not add up." });
    expect((await upload("corrected-invoices.txt")).status).toBe(201);
    for (const _ of [1, 2]) {
      const report = await post(`/api/milestones/${milestone.id}/report`, verifier, {});
      expect(report.body.status).toBe("rejected");
      expect(report.body.evidence.map((e: { originalName: string }) => e.originalName)).toEqual(["invoices.txt"]);
    }
  });
});

describe("history and the verifier's queue", () => {
  it("walks reject → resubmit → resume → approve and shows it all in the history", async () => {
    const { milestone } = await scenario("pending");
    const path = `/api/milestones/${milestone.id}`;
    expect((await post(`${path}/start`, verifier)).status).toBe(200);
    expect((await post(`${path}/reject`, verifier, { comments: "Missing invoice." })).status).toBe(200);
    expect((await post(`${path}/resubmit`, owner)).status).toBe(200);
    expect((await post(`${path}/start`, verifier)).status).toBe(200);
    expect((await post(`${path}/approve`, verifier, {})).status).toBe(200);
    const history = await t.request("GET", `${path}/history`, { as: investor });
    expect(history.status).toBe(200);
    expect(history.body.items.map((e: { action: string }) => e.action)).toEqual([
      "milestone.verification_started",
      "milestone.rejected",
      "milestone.resubmitted",
      "milestone.verification_started",
      "milestone.approved",
    ]);
    expect(history.body.items[0].actor).toEqual({ id: verifier.id, name: verifier.name });
    expect((await t.request("GET", `${path}/history`, { as: outsider })).status).toBe(404);
  });

  it("lists the signed-in verifier's pending, completed and delayed work", async () => {
    const me = await t.user("verifier");
    const project = await makeProject(t, { owner, verifiers: [me] });
    const conflicted = await makeProject(t, { owner, verifiers: [me], investors: [me] });
    await makeMilestone(t, conflicted, { title: "Conflicted" });
    const soon = await makeMilestone(t, project, { title: "Soon", dueInDays: 2 });
    const later = await makeMilestone(t, project, { title: "Later", dueInDays: 40 });
    const mine = await makeMilestone(t, project, { title: "Mine", status: "in_verification", verifier: me });
    await makeMilestone(t, project, { title: "Someone else's", status: "in_verification", verifier: otherVerifier });
    const delayed = await makeMilestone(t, project, { title: "Held", status: "delayed" });
    const done = await makeMilestone(t, project, { title: "Done", status: "verified", verifier: me, capitalAmount: 1 });

    const res = await t.request("GET", "/api/verifications", { as: me });
    expect(res.status).toBe(200);
    expect(res.body.counts).toEqual({ assignedProjects: 1, pending: 3, completed: 1 });
    expect(res.body.pending.map((m: { milestoneId: string }) => m.milestoneId)).toEqual([soon.id, mine.id, later.id]);
    expect(res.body.delayed.map((m: { milestoneId: string }) => m.milestoneId)).toEqual([delayed.id]);
    expect(res.body.completed.map((m: { milestoneId: string }) => m.milestoneId)).toEqual([done.id]);
    expect(res.body.pending[0]).toMatchObject({ projectName: project.name, progress: 0, currency: "USD" });

    expect((await t.request("GET", "/api/verifications", { as: owner })).status).toBe(403);
    expect((await t.request("GET", "/api/verifications", { as: null })).status).toBe(401);
  });
});
