// The status tabs' counts of the project and milestone lists: what the caller may see, under the list's search and
// filters, equal to what paging through each tab returns; from the rollups when nothing narrows the list.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

let t: TestApp;
let admin: TestUser;
let owner: TestUser;
let investor: TestUser;
let verifier: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  [admin, owner, investor, verifier] = await Promise.all([
    t.user("admin"),
    t.user("project_owner"),
    t.user("investor"),
    t.user("verifier"),
  ]);
  const seen = await makeProject(t, { owner, investors: [investor], verifiers: [verifier], name: "Counted Solar" });
  const other = await makeProject(t, { owner, investors: [investor], name: "Counted Wind" });
  const hidden = await makeProject(t, { owner, name: "Hidden Solar" });
  await makeMilestone(t, seen, { title: "Counted permits", status: "pending" });
  await makeMilestone(t, seen, { title: "Counted grid tie", status: "verified", verifier });
  await makeMilestone(t, seen, { title: "Counted permits again", status: "rejected", verifier });
  await makeMilestone(t, other, { title: "Counted tower", status: "in_verification", verifier });
  await makeMilestone(t, hidden, { title: "Counted hidden permits", status: "pending" });
});
afterAll(() => t.close());

const get = async (path: string, as: TestUser) => {
  const res = await t.request("GET", path, { as });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

describe("list counts", () => {
  it("count only the milestones the caller may see, per status, with or without a search", async () => {
    expect(await get("/api/milestones/counts", investor)).toEqual({
      total: 4,
      byStatus: { pending: 1, in_verification: 1, verified: 1, rejected: 1, delayed: 0 },
    });
    expect(await get("/api/milestones/counts?q=permits", investor)).toEqual({
      total: 2,
      byStatus: { pending: 1, in_verification: 0, verified: 0, rejected: 1, delayed: 0 },
    });
    const all = await get("/api/milestones/counts", admin);
    const adminPermits = await get("/api/milestones/counts?q=counted%20hidden", admin);
    expect(all.total).toBeGreaterThanOrEqual(5);
    expect(adminPermits.total).toBe(1);
  });

  it("equal what each status tab of the list returns", async () => {
    const counts = await get("/api/milestones/counts?q=Counted", investor);
    for (const [status, count] of Object.entries(counts.byStatus)) {
      const page = await get(`/api/milestones?q=Counted&status=${status}&limit=100`, investor);
      expect(page.items, status).toHaveLength(count as number);
    }
    const projectCounts = await get("/api/projects/counts?q=Counted", investor);
    expect(projectCounts.total).toBe(2);
    const page = await get("/api/projects?q=Counted&limit=100", investor);
    expect(page.items).toHaveLength(2);
    for (const [status, count] of Object.entries(projectCounts.byStatus)) {
      const tab = await get(`/api/projects?q=Counted&status=${status}&limit=100`, investor);
      expect(tab.items, status).toHaveLength(count as number);
    }
  });

  it("refuses an unknown filter with 400 and the field, and a signed-out caller with 401", async () => {
    const bad = await t.request("GET", "/api/milestones/counts?status=pending", { as: investor });
    expect(bad.status).toBe(400);
    const long = await t.request("GET", `/api/projects/counts?q=${"x".repeat(201)}`, { as: investor });
    expect(long.status).toBe(400);
    expect(long.body.error.details.q).toBe("Search term must be at most 200 characters.");
    expect((await t.request("GET", "/api/projects/counts")).status).toBe(401);
  });
});
