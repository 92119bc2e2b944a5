// Names and titles are one line of visible text: they stand in email subjects, push messages, the release
// certificate, the public /verify page, CSV exports and the audit history. A line break, another control character
// or a mark that reverses how the text reads ("Plant\u202E00.000,1$" shows as "Plant$1,000.00") is refused with
// 400 naming the field, and nothing is changed; descriptions keep their line breaks, and any script, emoji or
// joiner a name needs is accepted.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { milestones, projects, users } from "../src/db/schema";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.user("project_owner", { name: "Olivia Owner" });
});
afterAll(() => t.close());

const HIDDEN = [
  "Line\r\nBcc: someone@example.com",
  "Tab\there",
  "Plant\u202E00.000,1$",
  "Isolate\u2067x\u2069",
  "Bell\u0007",
];

describe("a one-line name holding a line break, a control character or a direction override", () => {
  it.each(HIDDEN)("is refused as a project's name and location, changing nothing: %j", async (text) => {
    const project = await makeProject(t, { owner, name: "Mojave Solar Farm" });
    const res = await t.request("PATCH", `/api/projects/${project.id}`, {
      as: owner,
      body: { name: text, location: text },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual({
      name: "Name must be one line of visible text (no line breaks, control or text-direction characters).",
      location: "Location must be one line of visible text (no line breaks, control or text-direction characters).",
    });
    const [kept] = await t.deps.db.select().from(projects).where(eq(projects.id, project.id));
    expect(kept.name).toBe("Mojave Solar Farm");
  });

  it.each(HIDDEN)("is refused as a milestone's title: %j", async (text) => {
    const project = await makeProject(t, { owner });
    const milestone = await makeMilestone(t, project, { title: "Foundations" });
    const created = await t.request("POST", `/api/projects/${project.id}/milestones`, {
      as: owner,
      body: { title: text, description: "Concrete foundations poured.", dueDate: "2030-01-01", capitalAmount: 100 },
    });
    expect(created.status).toBe(400);
    const message = "Title must be one line of visible text (no line breaks, control or text-direction characters).";
    expect(created.body.error.details).toEqual({ title: message });
    const edited = await t.request("PATCH", `/api/milestones/${milestone.id}`, { as: owner, body: { title: text } });
    expect(edited.status).toBe(400);
    expect(edited.body.error.details).toEqual({ title: message });
    const rows = await t.deps.db.select().from(milestones).where(eq(milestones.projectId, project.id));
    expect(rows.map((m) => m.title)).toEqual(["Foundations"]);
  });

  it.each(HIDDEN)("is refused as a person's name and organization: %j", async (text) => {
    const person = await t.user("investor", { name: "Ivan Investor", organization: "North Fund" });
    const res = await t.request("PATCH", "/api/me/profile", { as: person, body: { name: text, organization: text } });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual({
      name: "Full name must be one line of visible text (no line breaks, control or text-direction characters).",
      organization:
        "Organization must be one line of visible text (no line breaks, control or text-direction characters).",
    });
    const [kept] = await t.deps.db.select().from(users).where(eq(users.id, person.id));
    expect([kept.name, kept.organization]).toEqual(["Ivan Investor", "North Fund"]);
    const signUp = await t.request("POST", "/api/auth/sign-up", {
      as: null,
      body: { name: text, email: `new-${person.id}@example.com`, password: "a test passphrase, typed again 7" },
    });
    expect(signUp.status).toBe(400);
    expect(Object.keys(signUp.body.error.details)).toEqual(["name"]);
  });
});

describe("text that is only written in another script or with emoji", () => {
  it("is accepted as a name and a title; a description keeps its line breaks", async () => {
    const project = await makeProject(t, { owner });
    const name = "مزرعة الطاقة الشمسية · 太陽光発電所 👩‍🔧";
    const res = await t.request("PATCH", `/api/projects/${project.id}`, {
      as: owner,
      body: { name, description: "First line.\nSecond line.\r\nThird line." },
    });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe(name);
    expect(res.body.description).toBe("First line.\nSecond line.\r\nThird line.");
    const person = await t.user("investor");
    const profile = await t.request("PATCH", "/api/me/profile", {
      as: person,
      body: { name: "Zoë O’Brien-Łukasik", organization: "שמש בע״מ" },
    });
    expect(profile.status).toBe(200);
  });
});
