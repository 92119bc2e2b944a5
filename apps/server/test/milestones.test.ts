import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, milestones, notifications, projects } from "../src/db/schema";
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
  verifier = await t.user("verifier");
  admin = await t.user("admin");
});
afterAll(() => t.close());

const valid = () => ({
  title: "Foundations poured",
  description: "Concrete foundations for all four towers.",
  dueDate: daysFromNow(30),
  capitalAmount: 250_000,
});

const countRows = async (projectId: string) =>
  (await t.deps.db.select().from(milestones).where(eq(milestones.projectId, projectId))).length;

describe("POST /api/projects/:id/milestones", () => {
  it("creates a pending milestone, audits it and notifies investors and verifiers", async () => {
    const p = await makeProject(t, { owner, investors: [investor], verifiers: [verifier], name: "Tower Park" });
    const res = await t.request("POST", `/api/projects/${p.id}/milestones`, {
      as: owner,
      body: valid(),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      projectId: p.id,
      projectName: "Tower Park",
      title: "Foundations poured",
      status: "pending",
      capitalAmount: 250_000,
      verifierId: null,
      verificationProgress: 0,
      evidenceCount: 0,
      permissions: { canEdit: true, canDelete: true },
    });
    const notes = await t.deps.db
      .select()
      .from(notifications)
      .where(eq(notifications.link, `/milestones/${res.body.id}`));
    expect(notes.map((n) => n.userId).sort()).toEqual([investor.id, verifier.id].sort());
    expect(notes.every((n) => n.category === "milestone")).toBe(true);
    expect(notes[0].message).toBe('"Foundations poured" was added to Tower Park.');
    const audit = await t.deps.db.select().from(auditEvents).where(eq(auditEvents.entityId, res.body.id));
    expect(audit.map((a) => a.action)).toEqual(["milestone.created"]);
  });

  it.each([
    ["title", { title: "A" }, "Title must be at least 2 characters."],
    ["title", { title: undefined }, "Title must be at least 2 characters."],
    ["description", { description: "Too short" }, "Description must be at least 10 characters."],
    ["dueDate", { dueDate: "" }, "Due date is required."],
    ["dueDate", { dueDate: undefined }, "Due date is required."],
    ["dueDate", { dueDate: "next week" }, "Use a date in the form YYYY-MM-DD."],
    // Two days back: a date is past only once it is past everywhere on earth (UTC−12), whatever the hour here.
    ["dueDate", { dueDate: daysFromNow(-2) }, "Due date cannot be in the past."],
    ["capitalAmount", { capitalAmount: 0 }, "Capital amount must be greater than zero."],
    ["capitalAmount", { capitalAmount: 0.5 }, "Capital amount must be at least 1."],
    ["capitalAmount", { capitalAmount: "100" }, "Capital amount must be a number."],
    ["capitalAmount", { capitalAmount: 1e308 }, "Capital amount must be at most 100,000,000,000."],
    ["status", { status: "verified" }, "Unknown field."],
  ])("refuses a bad %s with 400 and the form's message", async (field, patch, message) => {
    const p = await makeProject(t, { owner });
    const res = await t.request("POST", `/api/projects/${p.id}/milestones`, {
      as: owner,
      body: { ...valid(), ...patch },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details[field]).toBe(message);
    expect(await countRows(p.id)).toBe(0);
  });

  it("accepts a due date of today", async () => {
    const p = await makeProject(t, { owner });
    const res = await t.request("POST", `/api/projects/${p.id}/milestones`, {
      as: owner,
      body: { ...valid(), dueDate: daysFromNow(0) },
    });
    expect(res.status).toBe(201);
  });

  it("refuses amounts beyond the total capital with 422 saying by how much", async () => {
    const p = await makeProject(t, { owner, totalCapital: 1_000_000 });
    await makeMilestone(t, p, { capitalAmount: 600_000 });
    const res = await t.request("POST", `/api/projects/${p.id}/milestones`, {
      as: owner,
      body: { ...valid(), capitalAmount: 650_000 },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("business_rule");
    expect(res.body.error.message).toBe("Milestone amounts would exceed the project's total capital by $250,000.");
    expect(await countRows(p.id)).toBe(1);
    const exact = await t.request("POST", `/api/projects/${p.id}/milestones`, {
      as: owner,
      body: { ...valid(), capitalAmount: 400_000 },
    });
    expect(exact.status).toBe(201);
  });

  it("names the project's currency in the overrun message", async () => {
    const p = await makeProject(t, { owner, totalCapital: 100_000, currency: "EUR" });
    const res = await t.request("POST", `/api/projects/${p.id}/milestones`, {
      as: owner,
      body: { ...valid(), capitalAmount: 100_000.5 },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toBe("Milestone amounts would exceed the project's total capital by €0.50.");
  });

  it("lets only one of two concurrent additions through when both would not fit", async () => {
    const p = await makeProject(t, { owner, totalCapital: 1_000_000 });
    const results = await Promise.all(
      [1, 2].map(() =>
        t.request("POST", `/api/projects/${p.id}/milestones`, {
          as: owner,
          body: { ...valid(), capitalAmount: 600_000 },
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 422]);
    expect(await countRows(p.id)).toBe(1);
  });
});

describe("GET /api/milestones/:id", () => {
  it("returns the project name and the verifier name", async () => {
    const p = await makeProject(t, { owner, verifiers: [verifier], name: "Clinic", totalCapital: 400_000 });
    const m = await makeMilestone(t, p, { status: "in_verification", verifier, capitalAmount: 100_000 });
    const res = await t.request("GET", `/api/milestones/${m.id}`, { as: verifier });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: m.id,
      projectName: "Clinic",
      projectTotalCapital: 400_000,
      projectCurrency: "USD",
      verifierId: verifier.id,
      verifierName: verifier.name,
      status: "in_verification",
      verificationProgress: 25,
      permissions: { canEdit: false, canDelete: false, canVerify: true },
    });
    expect(res.body.startedAt).not.toBeNull();
  });
});

describe("PATCH /api/milestones/:id", () => {
  it("edits fields, audits and keeps the capital rule", async () => {
    const p = await makeProject(t, { owner, totalCapital: 500_000 });
    const m = await makeMilestone(t, p, { capitalAmount: 200_000 });
    await makeMilestone(t, p, { capitalAmount: 200_000 });
    const res = await t.request("PATCH", `/api/milestones/${m.id}`, {
      as: owner,
      body: { title: "Renamed", description: "A longer description.", capitalAmount: 300_000 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: "Renamed", capitalAmount: 300_000 });
    const over = await t.request("PATCH", `/api/milestones/${m.id}`, {
      as: owner,
      body: { capitalAmount: 350_000 },
    });
    expect(over.status).toBe(422);
    expect(over.body.error.message).toBe("Milestone amounts would exceed the project's total capital by $50,000.");
    const audit = await t.deps.db.select().from(auditEvents).where(eq(auditEvents.entityId, m.id));
    expect(audit.map((a) => a.action)).toEqual(["milestone.updated"]);
  });

  it("carries out a status as the owner's transition, and refuses one that is not the owner's with 400 naming its endpoint", async () => {
    const p = await makeProject(t, { owner, investors: [investor] });
    const m = await makeMilestone(t, p);
    const refused = await t.request("PATCH", `/api/milestones/${m.id}`, { as: owner, body: { status: "verified" } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.status).toBe(
      `A milestone becomes Verified only through POST /api/milestones/${m.id}/approve, by its verifier.`,
    );
    const delayed = await t.request("PATCH", `/api/milestones/${m.id}`, { as: owner, body: { status: "delayed" } });
    expect(delayed.status).toBe(200);
    expect(delayed.body.status).toBe("delayed");
    const [project] = await t.deps.db.select().from(projects).where(eq(projects.id, p.id));
    expect(project.status).toBe("at_risk");
    const note = await t.deps.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, investor.id), eq(notifications.link, `/milestones/${m.id}`)));
    expect(note.map((n) => n.title)).toEqual(["Milestone delayed"]);
    // Exactly as the endpoint: the owner's transitions are the owner's, not an admin's.
    const byAdmin = await t.request("PATCH", `/api/milestones/${m.id}`, { as: admin, body: { status: "pending" } });
    expect(byAdmin.status).toBe(403);
    const back = await t.request("PATCH", `/api/milestones/${m.id}`, { as: owner, body: { status: "pending" } });
    expect(back.status).toBe(200);
    expect(back.body.status).toBe("pending");
    const inVerification = await t.request("PATCH", `/api/milestones/${m.id}`, {
      as: owner,
      body: { status: "in_verification" },
    });
    expect(inVerification.status).toBe(400);
    expect(inVerification.body.error.details.status).toContain(`/api/milestones/${m.id}/start`);
  });

  it.each(["verified", "in_verification"] as const)("refuses any edit of a %s milestone with 409", async (status) => {
    const p = await makeProject(t, { owner, verifiers: [verifier] });
    const m = await makeMilestone(t, p, { status, verifier });
    const res = await t.request("PATCH", `/api/milestones/${m.id}`, { as: owner, body: { title: "Changed" } });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toContain(status === "verified" ? "Verified" : "In Verification");
    const [row] = await t.deps.db.select().from(milestones).where(eq(milestones.id, m.id));
    expect(row.title).toBe(m.title);
  });

  it("keeps an unchanged past due date but refuses moving it into the past", async () => {
    const p = await makeProject(t, { owner });
    const m = await makeMilestone(t, p, { status: "rejected", dueInDays: -5 });
    const same = await t.request("PATCH", `/api/milestones/${m.id}`, {
      as: owner,
      body: { title: "Resubmitted", dueDate: m.dueDate, status: "pending" },
    });
    expect(same.status).toBe(200);
    const past = await t.request("PATCH", `/api/milestones/${m.id}`, {
      as: owner,
      body: { dueDate: daysFromNow(-2) },
    });
    expect(past.status).toBe(400);
    expect(past.body.error.details.dueDate).toBe("Due date cannot be in the past.");
  });

  it("validates fields with the form's messages", async () => {
    const p = await makeProject(t, { owner });
    const m = await makeMilestone(t, p);
    const res = await t.request("PATCH", `/api/milestones/${m.id}`, {
      as: owner,
      body: { title: "x", description: "short", capitalAmount: 0, status: "done" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual({
      title: "Title must be at least 2 characters.",
      description: "Description must be at least 10 characters.",
      capitalAmount: "Capital amount must be greater than zero.",
      status: "Unknown milestone status.",
    });
  });
});

describe("DELETE /api/milestones/:id", () => {
  it.each(["verified", "in_verification"] as const)("refuses to delete a %s milestone", async (status) => {
    const p = await makeProject(t, { owner, verifiers: [verifier] });
    const m = await makeMilestone(t, p, { status, verifier });
    const res = await t.request("DELETE", `/api/milestones/${m.id}`, { as: owner });
    expect(res.status).toBe(409);
    expect(await countRows(p.id)).toBe(1);
  });

  it("deletes and re-derives the project status", async () => {
    const p = await makeProject(t, { owner });
    const m = await makeMilestone(t, p, { status: "delayed" });
    expect((await t.deps.db.select().from(projects).where(eq(projects.id, p.id)))[0].status).toBe("at_risk");
    const res = await t.request("DELETE", `/api/milestones/${m.id}`, { as: owner });
    expect(res.status).toBe(204);
    expect((await t.deps.db.select().from(projects).where(eq(projects.id, p.id)))[0].status).toBe(
      "pending_verification",
    );
    expect((await t.request("GET", `/api/milestones/${m.id}`, { as: owner })).status).toBe(404);
  });
});

describe("project status derivation", () => {
  it("is funded when every unit of capital has been released", async () => {
    const p = await makeProject(t, { owner, verifiers: [verifier], totalCapital: 300_000 });
    await makeMilestone(t, p, { status: "verified", verifier, capitalAmount: 100_000, dueInDays: -3 });
    await makeMilestone(t, p, { status: "verified", verifier, capitalAmount: 200_000, dueInDays: -1 });
    const res = await t.request("GET", `/api/projects/${p.id}`, { as: owner });
    expect(res.body).toMatchObject({ status: "funded", disbursedCapital: 300_000, remainingCapital: 0 });
  });
});

describe("GET /api/milestones", () => {
  it("filters the caller's milestones by status, mine, assigned and due date", async () => {
    const p = await makeProject(t, { owner, investors: [investor], verifiers: [verifier], name: "Filters" });
    const soon = await makeMilestone(t, p, { dueInDays: 5, title: "Soon" });
    const later = await makeMilestone(t, p, { dueInDays: 90, status: "delayed", title: "Later" });
    const ids = (body: { id: string }[]) => body.map((m) => m.id);

    const all = await t.request("GET", "/api/milestones", { as: investor });
    expect(ids(all.body.items)).toEqual(expect.arrayContaining([soon.id, later.id]));
    expect(all.body.items.find((m: { id: string }) => m.id === soon.id)).toMatchObject({
      projectName: "Filters",
      projectCurrency: "USD",
    });
    const delayed = await t.request("GET", "/api/milestones?status=delayed", { as: investor });
    expect(ids(delayed.body.items)).toContain(later.id);
    expect(ids(delayed.body.items)).not.toContain(soon.id);
    const due = await t.request("GET", `/api/milestones?dueBefore=${daysFromNow(10)}`, { as: investor });
    expect(ids(due.body.items)).toContain(soon.id);
    expect(ids(due.body.items)).not.toContain(later.id);
    const mineAsInvestor = await t.request("GET", "/api/milestones?mine=true", { as: investor });
    expect(ids(mineAsInvestor.body.items)).not.toContain(soon.id);
    const mineAsOwner = await t.request("GET", "/api/milestones?mine=true", { as: owner });
    expect(ids(mineAsOwner.body.items)).toContain(soon.id);
    const assigned = await t.request("GET", "/api/milestones?assigned=true", { as: verifier });
    expect(ids(assigned.body.items)).toContain(soon.id);
    const bad = await t.request("GET", "/api/milestones?status=nope", { as: investor });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.status).toBe("Unknown milestone status.");
  });
});
