// The read cache (lib/read-cache.ts): an answer is served again only to the session it was computed for, and never
// after a change it did not see: the caller's own, another person's, one made straight in the database, one in
// flight while it was computed. A rolled-back change leaves it good.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../src/db/client";
import { READ_CACHE_UNTRACKED_TABLES } from "../src/lib/read-cache";
import { refreshProjectRollup } from "../src/services/projects/rollup";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

let t: TestApp;
let owner: TestUser;
let investor: TestUser;
let otherInvestor: TestUser;
let verifier: TestUser;
let admin: TestUser;
let project: { id: string };

beforeAll(async () => {
  t = await createTestApp();
  [owner, investor, otherInvestor, verifier, admin] = await Promise.all([
    t.user("project_owner"),
    t.user("investor"),
    t.user("investor"),
    t.user("verifier"),
    t.user("admin"),
  ]);
  project = await makeProject(t, { owner, investors: [investor], verifiers: [verifier], totalCapital: 1_000_000 });
  await makeProject(t, { owner, investors: [otherInvestor], name: "Other investor's", totalCapital: 7_000_000 });
});
afterAll(() => t.close());

/** GET as `who`, with whether the cache answered it. */
async function read(path: string, who: TestUser) {
  const res = await t.request("GET", path, { as: who });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.headers.get("Cache-Control")).toBe("no-store");
  return { body: res.body, cached: res.headers.get("Server-Timing") === "cache;desc=hit" };
}

const capital = (body: { role: { capitalUnderManagement: { amount: number }[] } }) =>
  body.role.capitalUnderManagement.map((c) => c.amount);

describe("read cache", () => {
  it("answers a repeated read from memory, and never with another person's answer", async () => {
    const first = await read("/api/dashboard", investor);
    const again = await read("/api/dashboard", investor);
    expect(first.cached).toBe(false);
    expect(again.cached).toBe(true);
    expect(again.body).toEqual(first.body);
    expect(capital(first.body)).toEqual([1_000_000]);
    // Same path, another person: their own figures, computed for them.
    const other = await read("/api/dashboard", otherInvestor);
    expect(other.cached).toBe(false);
    expect(capital(other.body)).toEqual([7_000_000]);
    expect(capital((await read("/api/dashboard", otherInvestor)).body)).toEqual([7_000_000]);
    expect(capital((await read("/api/dashboard", investor)).body)).toEqual([1_000_000]);
  });

  it("keys on the query string: another page, filter or search is another answer", async () => {
    const all = await read("/api/projects", investor);
    const searched = await read("/api/projects?q=nothing-matches-this", investor);
    expect(all.body.items).toHaveLength(1);
    expect(searched.cached).toBe(false);
    expect(searched.body.items).toHaveLength(0);
  });

  it("never serves a figure older than the caller's own change", async () => {
    await read("/api/milestones/counts", owner);
    expect((await read("/api/milestones/counts", owner)).cached).toBe(true);
    const created = await t.request("POST", `/api/projects/${project.id}/milestones`, {
      as: owner,
      body: {
        title: "Grid tie-in",
        description: "Connection to the grid.",
        dueDate: "2031-05-01",
        capitalAmount: 250_000,
      },
    });
    expect(created.status).toBe(201);
    const after = await read("/api/milestones/counts", owner);
    expect(after.cached).toBe(false);
    expect(after.body.byStatus.pending).toBe(1);
  });

  it("never serves a figure older than another person's change, or one written straight into the database", async () => {
    const before = await read("/api/dashboard", investor);
    expect((await read("/api/dashboard", investor)).cached).toBe(true);
    // The owner edits the project's capital through the API: the investor's next read sees it.
    const edited = await t.request("PATCH", `/api/projects/${project.id}`, {
      as: owner,
      body: { totalCapital: 1_500_000 },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const afterEdit = await read("/api/dashboard", investor);
    expect(afterEdit.cached).toBe(false);
    expect(capital(afterEdit.body)).toEqual([1_500_000]);
    expect(capital(before.body)).toEqual([1_000_000]);
    // Another process (or an operator) writes: nothing in this process hears of it, and still the next read is fresh.
    await makeMilestone(t, project, { title: "Written elsewhere", status: "in_verification", verifier });
    expect((await read("/api/dashboard", investor)).body.role.pendingReviewCount).toBe(
      before.body.role.pendingReviewCount + 1,
    );
  });

  it("stays good after a change that was rolled back", async () => {
    await read("/api/users", admin);
    await t.deps.db
      .transaction(async (tx) => {
        await tx.execute(sql`update projects set name = 'Renamed, then not' where id = ${project.id}`);
        throw new Error("roll back");
      })
      .catch(() => {});
    expect((await read("/api/users", admin)).cached).toBe(true);
  });

  it.skipIf(process.env.TEST_DB !== "pg")(
    "does not keep an answer computed while a change was in flight, once that change commits",
    async () => {
      const milestone = await makeMilestone(t, project, { title: "In flight", status: "pending" });
      const countsOf = async () => (await read("/api/milestones/counts", investor)).body.byStatus;
      const before = await countsOf();
      await t.deps.db.transaction(async (tx) => {
        await tx.execute(sql`update milestones set status = 'delayed' where id = ${milestone.id}`);
        await refreshProjectRollup(tx, project.id);
        // Read (and cache) on another connection while this transaction is open: it cannot see the change.
        const during = await read("/api/milestones/counts", investor);
        expect(during.body.byStatus).toEqual(before);
      });
      const after = await countsOf();
      expect(after.delayed).toBe(before.delayed + 1);
      expect(after.pending).toBe(before.pending - 1);
    },
  );

  it("tracks every table but the few listed as untracked", async () => {
    const rows = await queryRows<{ tablename: string; tracked: boolean }>(
      t.deps.db,
      sql`select t.tablename, exists (
            select 1 from pg_trigger g
            where g.tgrelid = format('%I', t.tablename)::regclass and g.tgname = 'note_data_change'
          ) as tracked
          from pg_tables t where t.schemaname = 'public' order by 1`,
    );
    const untracked = rows.filter((r) => !r.tracked).map((r) => r.tablename);
    expect(untracked.sort()).toEqual([...READ_CACHE_UNTRACKED_TABLES].sort());
    expect(rows.length).toBeGreaterThan(untracked.length + 20);
  });

  it("is off with READ_CACHE=false", async () => {
    const uncached = await createTestApp({ READ_CACHE: false });
    try {
      const who = await uncached.user("investor");
      for (let i = 0; i < 2; i++) {
        const res = await uncached.request("GET", "/api/dashboard", { as: who });
        expect(res.status).toBe(200);
        expect(res.headers.get("Server-Timing")).toBeNull();
      }
    } finally {
      await uncached.close();
    }
  });
});
