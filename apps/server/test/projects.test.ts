import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, notifications, projectMembers, projects } from "../src/db/schema";
import { daysFromNow, makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

let t: TestApp;
let owner: TestUser;
let investor: TestUser;
let verifier: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.user("project_owner");
  investor = await t.user("investor");
  verifier = await t.user("verifier", { organization: "Meridian Assurance", expertise: ["Solar"] });
  admin = await t.user("admin");
});
afterAll(() => t.close());

const valid = {
  name: "Harbour Wind",
  description: "Offshore wind farm, phase one.",
  totalCapital: 2_500_000,
  location: "Aberdeen",
};

describe("POST /api/projects", () => {
  it("creates a pending project owned by its creator, with derived capital and an audit event", async () => {
    const res = await t.request("POST", "/api/projects", {
      as: owner,
      body: { ...valid, currency: "GBP", startDate: "2025-01-05", endDate: "2026-06-30" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "Harbour Wind",
      status: "pending_verification",
      totalCapital: 2_500_000,
      disbursedCapital: 0,
      remainingCapital: 2_500_000,
      currency: "GBP",
      location: "Aberdeen",
      startDate: "2025-01-05",
      endDate: "2026-06-30",
      ownerId: owner.id,
      investors: [],
      verifiers: [],
      milestones: [],
      counts: { total: 0, verified: 0, pending: 0, delayedOrRejected: 0 },
      permissions: {
        canEdit: true,
        canDelete: true,
        canManageMilestones: true,
        canSetMilestoneStatus: true,
        canAssign: false,
      },
    });
    expect(res.body.owner).toMatchObject({ id: owner.id, name: owner.name, role: "owner" });
    const audit = await t.deps.db.select().from(auditEvents).where(eq(auditEvents.entityId, res.body.id));
    expect(audit.map((a) => a.action)).toEqual(["project.created"]);
  });

  it("defaults the currency to USD and treats dates as optional", async () => {
    const res = await t.request("POST", "/api/projects", { as: admin, body: valid });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ currency: "USD", startDate: null, endDate: null, ownerId: admin.id });
  });

  it.each([
    ["name", { name: "" }, "Name is required."],
    ["name", { name: undefined }, "Name is required."],
    ["description", { description: "  " }, "Description is required."],
    ["totalCapital", { totalCapital: 0 }, "Total capital must be greater than zero."],
    ["totalCapital", { totalCapital: "lots" }, "Total capital must be a number."],
    ["location", { location: "" }, "Location is required."],
    ["currency", { currency: "JPY" }, "Currency must be one of USD, EUR, GBP."],
    ["startDate", { startDate: "5 Jan 2025" }, "Use a date in the form YYYY-MM-DD."],
    ["endDate", { startDate: "2025-02-01", endDate: "2025-01-01" }, "End date must be on or after the start date."],
    ["id", { id: "project-123" }, "Unknown field."],
  ])("refuses a bad %s with 400 and its message", async (field, patch, message) => {
    const before = await t.deps.db.select().from(projects);
    const res = await t.request("POST", "/api/projects", { as: owner, body: { ...valid, ...patch } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_input");
    expect(res.body.error.details[field]).toBe(message);
    expect(await t.deps.db.select().from(projects)).toHaveLength(before.length);
  });

  it("refuses a body that is not JSON", async () => {
    const res = await t.request("POST", "/api/projects", {
      as: owner,
      raw: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
  });
});

describe("GET /api/projects", () => {
  it("derives disbursed and remaining capital from the releases, and filters by status", async () => {
    const p = await makeProject(t, { owner, investors: [investor], verifiers: [verifier], totalCapital: 1_000_000 });
    await makeMilestone(t, p, { status: "verified", capitalAmount: 250_000, verifier, dueInDays: -5 });
    await makeMilestone(t, p, { status: "pending", capitalAmount: 300_000 });
    const res = await t.request("GET", "/api/projects", { as: investor });
    expect(res.status).toBe(200);
    const summary = res.body.items.find((x: { id: string }) => x.id === p.id);
    expect(summary).toMatchObject({
      totalCapital: 1_000_000,
      disbursedCapital: 250_000,
      remainingCapital: 750_000,
      status: "verified",
      milestoneCount: 2,
      ownerId: owner.id,
    });
    const verified = await t.request("GET", "/api/projects?status=verified", { as: investor });
    expect(verified.body.items.map((x: { id: string }) => x.id)).toContain(p.id);
    const atRisk = await t.request("GET", "/api/projects?status=at_risk", { as: investor });
    expect(atRisk.body.items.map((x: { id: string }) => x.id)).not.toContain(p.id);
    const bad = await t.request("GET", "/api/projects?status=bogus", { as: investor });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.status).toBe("Unknown project status.");
  });
});

describe("GET /api/projects/:id", () => {
  it("returns the team, milestones sorted by due date, and counts", async () => {
    const p = await makeProject(t, { owner, investors: [investor], verifiers: [verifier] });
    await makeMilestone(t, p, { status: "rejected", dueInDays: 40, verifier, title: "C" });
    await makeMilestone(t, p, { status: "pending", dueInDays: 10, title: "A" });
    await makeMilestone(t, p, { status: "in_verification", dueInDays: 20, verifier, title: "B" });
    await makeMilestone(t, p, { status: "delayed", dueInDays: 50, title: "D" });
    const res = await t.request("GET", `/api/projects/${p.id}`, { as: verifier });
    expect(res.status).toBe(200);
    expect(res.body.milestones.map((m: { title: string }) => m.title)).toEqual(["A", "B", "C", "D"]);
    expect(res.body.milestones[1]).toMatchObject({ verifierId: verifier.id, verifierName: verifier.name });
    expect(res.body.counts).toEqual({ total: 4, verified: 0, pending: 2, delayedOrRejected: 2 });
    expect(res.body.status).toBe("at_risk");
    expect(res.body.investors.map((m: { id: string }) => m.id)).toEqual([investor.id]);
    expect(res.body.verifiers[0]).toMatchObject({ id: verifier.id, organization: "Meridian Assurance" });
    expect(res.body.permissions).toEqual({
      canEdit: false,
      canDelete: false,
      canManageMilestones: false,
      canSetMilestoneStatus: false,
      canAssign: false,
      reasons: {},
    });
  });
});

describe("PATCH /api/projects/:id", () => {
  it("updates fields and writes an audit event", async () => {
    const p = await makeProject(t, { owner });
    const res = await t.request("PATCH", `/api/projects/${p.id}`, {
      as: owner,
      body: { name: "Renamed", location: "Bergen", totalCapital: 2_000_000 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Renamed", location: "Bergen", totalCapital: 2_000_000 });
    const audit = await t.deps.db.select().from(auditEvents).where(eq(auditEvents.entityId, p.id));
    expect(audit.map((a) => a.action)).toEqual(["project.updated"]);
  });

  it("refuses a total capital below the milestone sum or the disbursed amount (422)", async () => {
    const p = await makeProject(t, { owner, verifiers: [verifier], totalCapital: 1_000_000 });
    await makeMilestone(t, p, { status: "verified", capitalAmount: 400_000, verifier, dueInDays: -1 });
    await makeMilestone(t, p, { capitalAmount: 300_000 });
    const below = await t.request("PATCH", `/api/projects/${p.id}`, { as: owner, body: { totalCapital: 600_000 } });
    expect(below.status).toBe(422);
    expect(below.body.error.message).toBe(
      "Total capital cannot be less than the sum of the milestone amounts ($700,000).",
    );
    const ok = await t.request("PATCH", `/api/projects/${p.id}`, { as: owner, body: { totalCapital: 700_000 } });
    expect(ok.status).toBe(200);
    expect(ok.body.remainingCapital).toBe(300_000);
  });

  it("refuses an end date before the stored start date, and an empty name", async () => {
    const p = await makeProject(t, { owner });
    const res = await t.request("PATCH", `/api/projects/${p.id}`, { as: owner, body: { endDate: "2000-01-01" } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.endDate).toBe("End date must be on or after the start date.");
    const empty = await t.request("PATCH", `/api/projects/${p.id}`, { as: owner, body: { name: "" } });
    expect(empty.status).toBe(400);
    expect(empty.body.error.details.name).toBe("Name is required.");
  });
});

describe("DELETE /api/projects/:id", () => {
  it("refuses while a milestone is verified, and deletes otherwise", async () => {
    const released = await makeProject(t, { owner, verifiers: [verifier] });
    await makeMilestone(t, released, { status: "verified", verifier, dueInDays: -1 });
    const refused = await t.request("DELETE", `/api/projects/${released.id}`, { as: owner });
    expect(refused.status).toBe(409);
    expect(await t.deps.db.select().from(projects).where(eq(projects.id, released.id))).toHaveLength(1);

    const p = await makeProject(t, { owner });
    await makeMilestone(t, p);
    const res = await t.request("DELETE", `/api/projects/${p.id}`, { as: owner });
    expect(res.status).toBe(204);
    expect((await t.request("GET", `/api/projects/${p.id}`, { as: owner })).status).toBe(404);
  });
});

describe("members", () => {
  it("lets an admin assign a verifier, notifying them with a link to the project", async () => {
    const p = await makeProject(t, { owner, name: "Assign me" });
    const res = await t.request("POST", `/api/projects/${p.id}/members`, {
      as: admin,
      body: { userId: verifier.id, role: "verifier" },
    });
    expect(res.status).toBe(201);
    expect(res.body.verifiers.map((v: { id: string }) => v.id)).toEqual([verifier.id]);
    const [note] = await t.deps.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, verifier.id), eq(notifications.link, `/projects/${p.id}`)));
    expect(note).toMatchObject({ category: "account", title: "Assigned to a project" });
    expect(note.message).toBe("You have been assigned as a verifier on Assign me.");

    const again = await t.request("POST", `/api/projects/${p.id}/members`, {
      as: admin,
      body: { userId: verifier.id, role: "verifier" },
    });
    expect(again.status).toBe(409);

    const removed = await t.request("DELETE", `/api/projects/${p.id}/members/${verifier.id}?role=verifier`, {
      as: admin,
    });
    expect(removed.status).toBe(204);
    const left = await t.deps.db.select().from(projectMembers).where(eq(projectMembers.projectId, p.id));
    expect(left.map((m) => m.role)).toEqual(["owner"]);
    const gone = await t.request("DELETE", `/api/projects/${p.id}/members/${verifier.id}?role=verifier`, {
      as: admin,
    });
    expect(gone.status).toBe(404);
  });

  it("assigns investors, and refuses users without the matching role (422)", async () => {
    const p = await makeProject(t, { owner });
    const asInvestor = await t.request("POST", `/api/projects/${p.id}/members`, {
      as: admin,
      body: { userId: investor.id, role: "investor" },
    });
    expect(asInvestor.status).toBe(201);
    expect(asInvestor.body.investors.map((v: { id: string }) => v.id)).toEqual([investor.id]);

    const wrong = await t.request("POST", `/api/projects/${p.id}/members`, {
      as: admin,
      body: { userId: investor.id, role: "verifier" },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.message).toBe("Only users with the verifier role can be assigned as verifiers.");
    const wrongInvestor = await t.request("POST", `/api/projects/${p.id}/members`, {
      as: admin,
      body: { userId: verifier.id, role: "investor" },
    });
    expect(wrongInvestor.status).toBe(422);
    expect(wrongInvestor.body.error.message).toBe("Only users with the investor role can be assigned as investors.");
  });

  it("never assigns a verifier to a project they own", async () => {
    const turned = await t.user("verifier");
    const p = await makeProject(t, { owner: turned });
    const res = await t.request("POST", `/api/projects/${p.id}/members`, {
      as: admin,
      body: { userId: turned.id, role: "verifier" },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toBe("A verifier cannot be assigned to a project they own or invest in.");
  });

  it("refuses to remove a verifier with a milestone in verification, and validates the body", async () => {
    const p = await makeProject(t, { owner, verifiers: [verifier] });
    await makeMilestone(t, p, { status: "in_verification", verifier });
    const res = await t.request("DELETE", `/api/projects/${p.id}/members/${verifier.id}?role=verifier`, {
      as: admin,
    });
    expect(res.status).toBe(409);
    const badRole = await t.request("DELETE", `/api/projects/${p.id}/members/${verifier.id}?role=owner`, {
      as: admin,
    });
    expect(badRole.status).toBe(400);
    const badBody = await t.request("POST", `/api/projects/${p.id}/members`, {
      as: admin,
      body: { userId: "nope", role: "auditor" },
    });
    expect(badBody.status).toBe(400);
    expect(badBody.body.error.details).toEqual({
      userId: "Choose a user.",
      role: "Role must be investor or verifier.",
    });
    const unknown = await t.request("POST", `/api/projects/${p.id}/members`, {
      as: admin,
      body: { userId: "00000000-0000-4000-8000-000000000000", role: "verifier" },
    });
    expect(unknown.status).toBe(404);
  });
});

describe("GET /api/verifiers", () => {
  it("lists verifiers with organization, expertise, rating, completed verifications and project count", async () => {
    const p = await makeProject(t, { owner, verifiers: [verifier] });
    await makeMilestone(t, p, { status: "verified", verifier, dueInDays: -3 });
    await makeMilestone(t, p, { status: "rejected", verifier, dueInDays: 3 });
    const res = await t.request("GET", "/api/verifiers", { as: investor });
    expect(res.status).toBe(200);
    const row = res.body.items.find((v: { id: string }) => v.id === verifier.id);
    expect(row).toMatchObject({
      name: verifier.name,
      email: verifier.email,
      organization: "Meridian Assurance",
      expertise: ["Solar"],
      rating: null,
    });
    expect(row.completedVerifications).toBeGreaterThanOrEqual(2);
    expect(row.projectCount).toBeGreaterThanOrEqual(1);
    expect(res.body.items.every((v: { id: string }) => v.id !== investor.id)).toBe(true);
    void daysFromNow;
  });

  it("refuses the directory, with its email addresses, to owners and verifiers (anyone may sign up as an owner)", async () => {
    for (const who of [owner, verifier]) {
      const res = await t.request("GET", "/api/verifiers", { as: who });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe("The verifiers directory is for investors and admins.");
      expect(JSON.stringify(res.body)).not.toContain(verifier.email);
    }
  });
});
