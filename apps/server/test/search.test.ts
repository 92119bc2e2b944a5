// GET /api/search: the header's suggestions, only from what the caller may see; people for admins only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

let t: TestApp;
let owner: TestUser;
let investor: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.user("project_owner", { name: "Quentin Quarry" });
  investor = await t.user("investor");
  admin = await t.user("admin");
  const mine = await makeProject(t, { owner, investors: [investor], name: "Quarry Road Bridge" });
  await makeMilestone(t, mine, { title: "Quarry access cleared" });
  const theirs = await makeProject(t, { owner: await t.user("project_owner"), name: "Quarry Hidden Works" });
  await makeMilestone(t, theirs, { title: "Quarry hidden milestone" });
});
afterAll(async () => {
  await t.close();
});

const search = (as: TestUser | null, q: string) =>
  t.request("GET", `/api/search?${new URLSearchParams({ q })}`, { as });

describe("GET /api/search", () => {
  it("lists suggestions in the order people read names (Site 2 before Site 10), as the lists do", async () => {
    for (const n of [10, 2, 1]) {
      const project = await makeProject(t, { owner, name: `Numbered Site ${n}` });
      await makeMilestone(t, project, { title: `Numbered pour ${n}` });
      await t.user("verifier", { name: `Numbered Inspector ${n}` });
    }
    const res = await search(admin, "numbered");
    const names = (items: { name?: string; title?: string }[]) => items.map((item) => item.name ?? item.title);
    expect(names(res.body.projects)).toEqual(["Numbered Site 1", "Numbered Site 2", "Numbered Site 10"]);
    expect(names(res.body.milestones)).toEqual(["Numbered pour 1", "Numbered pour 2", "Numbered pour 10"]);
    expect(names(res.body.people)).toEqual(["Numbered Inspector 1", "Numbered Inspector 2", "Numbered Inspector 10"]);
  });

  it("suggests the caller's projects and milestones, nothing they cannot see, and no people to non-admins", async () => {
    const res = await search(investor, "quarry");
    expect(res.status).toBe(200);
    expect(res.body.projects.map((p: { name: string }) => p.name)).toEqual(["Quarry Road Bridge"]);
    expect(res.body.milestones).toEqual([
      expect.objectContaining({ title: "Quarry access cleared", projectName: "Quarry Road Bridge" }),
    ]);
    expect(res.body.people).toEqual([]);
  });

  it("gives admins every match, people included, five of each at most", async () => {
    const res = await search(admin, "QUARRY");
    expect(res.body.projects).toHaveLength(2);
    expect(res.body.milestones).toHaveLength(2);
    expect(res.body.people).toEqual([expect.objectContaining({ id: owner.id, name: "Quentin Quarry" })]);
    for (let i = 0; i < 7; i++) await makeProject(t, { owner, name: `Quarry extra ${i}` });
    expect((await search(admin, "quarry")).body.projects).toHaveLength(5);
  });

  it("takes % and _ literally, refuses a term under 2 characters, and needs a sign-in", async () => {
    expect((await search(admin, "%%")).body.projects).toEqual([]);
    const short = await search(admin, "q");
    expect(short.status).toBe(400);
    expect(short.body.error.details.q).toBe("Type at least 2 characters to search.");
    expect((await search(null, "quarry")).status).toBe(401);
  });
});
