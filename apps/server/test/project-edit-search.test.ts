import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, milestones, projects } from "../src/db/schema";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

let t: TestApp;
let owner: TestUser;
let otherOwner: TestUser;
let investor: TestUser;
let verifier: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.user("project_owner");
  otherOwner = await t.user("project_owner");
  investor = await t.user("investor");
  verifier = await t.user("verifier");
  admin = await t.user("admin");
});
afterAll(() => t.close());

async function create(as: TestUser, name: string, description: string, location: string) {
  const res = await t.request("POST", "/api/projects", {
    as,
    body: { name, description, location, totalCapital: 500_000 },
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

const names = (body: { name: string }[]) => body.map((p) => p.name).sort();

describe("GET /api/projects?q=", () => {
  let solar: string;
  let wind: string;
  let percent: string;
  let underscore: string;
  let foreign: string;
  beforeAll(async () => {
    solar = await create(owner, "Atacama Sun Array", "Photovoltaic plant in the desert.", "Antofagasta, Chile");
    wind = await create(owner, "North Sea Turbines", "Offshore wind, SOLAR-ready substation.", "Esbjerg");
    percent = await create(owner, "100% Green Grid", "Grid upgrade.", "Leeds");
    underscore = await create(owner, "Grid_Link Storage", "Battery storage.", "Nantes");
    foreign = await create(otherOwner, "Atacama Second Array", "Someone else's plant.", "Calama, Chile");
  });

  it("matches name, description and location case-insensitively, only among the caller's projects", async () => {
    const byName = await t.request("GET", "/api/projects?q=atacama", { as: owner });
    expect(byName.status).toBe(200);
    expect(byName.body.items.map((p: { id: string }) => p.id)).toEqual([solar]);

    const byDescription = await t.request("GET", "/api/projects?q=Solar", { as: owner });
    expect(byDescription.body.items.map((p: { id: string }) => p.id)).toEqual([wind]);

    const byLocation = await t.request("GET", "/api/projects?q=%20chile%20", { as: owner });
    expect(byLocation.body.items.map((p: { id: string }) => p.id)).toEqual([solar]);

    // An admin sees every project, so the same term finds the other owner's too.
    const asAdmin = await t.request("GET", "/api/projects?q=CHILE", { as: admin });
    expect(asAdmin.body.items.map((p: { id: string }) => p.id).sort()).toEqual([solar, foreign].sort());
  });

  it("takes %, _ and backslash literally", async () => {
    const pct = await t.request("GET", `/api/projects?q=${encodeURIComponent("%")}`, { as: owner });
    expect(pct.body.items.map((p: { id: string }) => p.id)).toEqual([percent]);
    const under = await t.request("GET", "/api/projects?q=_", { as: owner });
    expect(under.body.items.map((p: { id: string }) => p.id)).toEqual([underscore]);
    const slash = await t.request("GET", `/api/projects?q=${encodeURIComponent("\\")}`, { as: owner });
    expect(slash.body.items).toEqual([]);
  });

  it("combines with the status filter, lists everything for a blank term, and finds nothing for nonsense", async () => {
    const pending = await t.request("GET", "/api/projects?q=grid&status=pending_verification", { as: owner });
    expect(names(pending.body.items)).toEqual(["100% Green Grid", "Grid_Link Storage"]);
    const atRisk = await t.request("GET", "/api/projects?q=grid&status=at_risk", { as: owner });
    expect(atRisk.body.items).toEqual([]);
    const blank = await t.request("GET", "/api/projects?q=%20%20", { as: owner });
    expect(blank.body.items).toHaveLength(4);
    const none = await t.request("GET", "/api/projects?q=zzqx-nothing", { as: owner });
    expect(none.status).toBe(200);
    expect(none.body.items).toEqual([]);
  });

  it("refuses a term over 200 characters and an unknown parameter with 400", async () => {
    const long = await t.request("GET", `/api/projects?q=${"a".repeat(201)}`, { as: owner });
    expect(long.status).toBe(400);
    expect(long.body.error.details.q).toBe("Search term must be at most 200 characters.");
    const unknown = await t.request("GET", "/api/projects?search=grid", { as: owner });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details.search).toBe("Unknown field.");
  });

  it("answers 401 when signed out", async () => {
    expect((await t.request("GET", "/api/projects?q=grid")).status).toBe(401);
  });
});

describe("editing a project from its page", () => {
  it("saves the whole form, even an unchanged currency once capital was released", async () => {
    const p = await makeProject(t, { owner, verifiers: [verifier], totalCapital: 1_000_000 });
    await makeMilestone(t, p, { status: "verified", capitalAmount: 200_000, verifier, dueInDays: -2 });
    const res = await t.request("PATCH", `/api/projects/${p.id}`, {
      as: owner,
      body: {
        name: "Renamed Array",
        description: "New description.",
        location: "Lyon",
        totalCapital: 1_250_000,
        currency: "USD",
        startDate: "2025-01-01",
        endDate: null,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Renamed Array",
      totalCapital: 1_250_000,
      disbursedCapital: 200_000,
      remainingCapital: 1_050_000,
      endDate: null,
    });
    const changed = await t.request("PATCH", `/api/projects/${p.id}`, { as: owner, body: { currency: "EUR" } });
    expect(changed.status).toBe(422);
    expect(changed.body.error.message).toBe("The currency cannot change once capital has been released.");
  });

  it("refuses a capital below the disbursed amount with the figure, and changes nothing", async () => {
    const p = await makeProject(t, { owner, verifiers: [verifier], totalCapital: 1_000_000 });
    const m = await makeMilestone(t, p, { status: "verified", capitalAmount: 300_000, verifier, dueInDays: -2 });
    // The database itself refuses a milestone below its release, so the milestone sum always covers what was
    // disbursed and is the binding limit.
    await expect(
      t.deps.db.update(milestones).set({ capitalAmount: "100000.00" }).where(eq(milestones.id, m.id)),
    ).rejects.toThrow();
    const res = await t.request("PATCH", `/api/projects/${p.id}`, {
      as: owner,
      body: { name: "Should not stick", totalCapital: 250_000 },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toBe(
      "Total capital cannot be less than the sum of the milestone amounts ($300,000).",
    );
    const [row] = await t.deps.db.select().from(projects).where(eq(projects.id, p.id));
    expect(row).toMatchObject({ name: "Test project", totalCapital: "1000000.00" });
  });

  it("lets an admin edit, refuses a member who is not the owner (403) and hides it from outsiders (404)", async () => {
    const p = await makeProject(t, { owner, investors: [investor] });
    expect((await t.request("PATCH", `/api/projects/${p.id}`, { as: admin, body: { name: "By admin" } })).status).toBe(
      200,
    );
    const asInvestor = await t.request("PATCH", `/api/projects/${p.id}`, { as: investor, body: { name: "Nope" } });
    expect(asInvestor.status).toBe(403);
    const asOutsider = await t.request("PATCH", `/api/projects/${p.id}`, { as: otherOwner, body: { name: "Nope" } });
    expect(asOutsider.status).toBe(404);
    const [row] = await t.deps.db.select().from(projects).where(eq(projects.id, p.id));
    expect(row.name).toBe("By admin");
  });

  it("gives each bad field its message in the 400 details", async () => {
    const p = await makeProject(t, { owner });
    const res = await t.request("PATCH", `/api/projects/${p.id}`, {
      as: owner,
      body: { name: "", description: " ", totalCapital: 0, location: "" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toMatchObject({
      name: "Name is required.",
      description: "Description is required.",
      totalCapital: "Total capital must be greater than zero.",
      location: "Location is required.",
    });
  });
});

describe("deleting a project from its page", () => {
  it("deletes its milestones with it and records the deletion", async () => {
    const p = await makeProject(t, { owner });
    await makeMilestone(t, p, { title: "One" });
    // Rejected, not in verification: a project whose milestone a verifier is working on is kept (integrity-doors).
    await makeMilestone(t, p, { title: "Two", status: "rejected", verifier });
    const res = await t.request("DELETE", `/api/projects/${p.id}`, { as: owner });
    expect(res.status).toBe(204);
    expect(await t.deps.db.select().from(milestones).where(eq(milestones.projectId, p.id))).toEqual([]);
    const audit = await t.deps.db.select().from(auditEvents).where(eq(auditEvents.entityId, p.id));
    expect(audit.map((a) => a.action)).toContain("project.deleted");
    const list = await t.request("GET", "/api/projects", { as: owner });
    expect(list.body.items.map((x: { id: string }) => x.id)).not.toContain(p.id);
  });

  it("answers 409 with its message once capital was released, keeping the project and its milestones", async () => {
    const p = await makeProject(t, { owner, verifiers: [verifier] });
    await makeMilestone(t, p, { status: "verified", verifier, dueInDays: -1 });
    await makeMilestone(t, p);
    const res = await t.request("DELETE", `/api/projects/${p.id}`, { as: admin });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe("A project with verified milestones or released capital cannot be deleted.");
    expect(await t.deps.db.select().from(milestones).where(eq(milestones.projectId, p.id))).toHaveLength(2);
  });

  it("refuses a member who is not the owner (403) and an outsider (404)", async () => {
    const p = await makeProject(t, { owner, investors: [investor] });
    expect((await t.request("DELETE", `/api/projects/${p.id}`, { as: investor })).status).toBe(403);
    expect((await t.request("DELETE", `/api/projects/${p.id}`, { as: otherOwner })).status).toBe(404);
    expect(await t.deps.db.select().from(projects).where(eq(projects.id, p.id))).toHaveLength(1);
  });
});
