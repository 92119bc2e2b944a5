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
let stranger: TestUser;
let strangersProject: { id: string };

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
  stranger = await t.user("project_owner");
  strangersProject = await makeProject(t, { owner: stranger, name: "Stranger's", totalCapital: 3_000_000 });
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

  it("keeps a member's answers through a change to a project they are not in, and refreshes an admin's", async () => {
    const before = await read("/api/dashboard", investor);
    expect((await read("/api/dashboard", investor)).cached).toBe(true);
    await read("/api/projects", admin);
    expect((await read("/api/projects", admin)).cached).toBe(true);
    const renamed = await t.request("PATCH", `/api/projects/${strangersProject.id}`, {
      as: stranger,
      body: { name: "Stranger's, renamed" },
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const kept = await read("/api/dashboard", investor);
    expect(kept.cached).toBe(true);
    expect(kept.body).toEqual(before.body);
    // An admin's answers read the whole platform: any change refreshes them.
    const adminView = await read("/api/projects", admin);
    expect(adminView.cached).toBe(false);
    expect(adminView.body.items.map((p: { name: string }) => p.name)).toContain("Stranger's, renamed");
  });

  it("refreshes a person's answers when they join a project, and keeps them when someone else does", async () => {
    const before = await read("/api/dashboard", investor);
    expect((await read("/api/dashboard", investor)).cached).toBe(true);
    await read("/api/dashboard", otherInvestor);
    await t.deps.db.execute(
      sql`insert into project_members (project_id, user_id, role) values (${strangersProject.id}, ${investor.id}, 'investor')`,
    );
    const joined = await read("/api/dashboard", investor);
    expect(joined.cached).toBe(false);
    expect(capital(joined.body)).toEqual([capital(before.body)[0] + 3_000_000]);
    expect((await read("/api/dashboard", otherInvestor)).cached).toBe(true);
    await t.deps.db.execute(
      sql`delete from project_members where project_id = ${strangersProject.id} and user_id = ${investor.id}`,
    );
    const left = await read("/api/dashboard", investor);
    expect(left.cached).toBe(false);
    expect(capital(left.body)).toEqual(capital(before.body));
  });

  it("keeps answers that show nobody's name through a profile edit, and refreshes those that show it", async () => {
    await makeMilestone(t, project, { title: "Checked by the verifier", status: "in_verification", verifier });
    await read("/api/dashboard", investor);
    await read("/api/milestones", investor);
    expect((await read("/api/milestones", investor)).cached).toBe(true);
    const edited = await t.request("PATCH", "/api/me/profile", {
      as: verifier,
      body: { name: "Vera Renamed", organization: "Field Checks Ltd" },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await read("/api/dashboard", investor)).cached).toBe(true);
    const list = await read("/api/milestones", investor);
    expect(list.cached).toBe(false);
    const checked = list.body.items.find((m: { title: string }) => m.title === "Checked by the verifier");
    expect(checked.verifierName).toBe("Vera Renamed");
  });

  it("keeps one person's notifications through another's, and refreshes them with their own", async () => {
    const seen = async (who: TestUser) => read("/api/notifications", who);
    await seen(investor);
    await seen(otherInvestor);
    const insert = (who: TestUser, title: string) =>
      t.deps.db.execute(
        sql`insert into notifications (user_id, title, message, category) values (${who.id}, ${title}, 'Body.', 'project')`,
      );
    await insert(otherInvestor, "For the other investor");
    expect((await seen(investor)).cached).toBe(true);
    const theirs = await seen(otherInvestor);
    expect(theirs.cached).toBe(false);
    expect(theirs.body.items[0].title).toBe("For the other investor");
    await insert(investor, "For the investor");
    const mine = await seen(investor);
    expect(mine.cached).toBe(false);
    expect(mine.body.items[0].title).toBe("For the investor");
  });

  it("computes an answer once for requests that arrive together, and none is older than a change before them", async () => {
    await makeMilestone(t, project, { title: "Before the burst", status: "delayed" });
    const counter = t.deps.metrics.registry.getSingleMetric("tranche_read_cache_requests_total");
    const count = async (result: string) =>
      (await counter?.get())?.values.find((v) => v.labels.result === result)?.value ?? 0;
    const [hits, misses] = [await count("hit"), await count("miss")];
    const burst = await Promise.all(Array.from({ length: 8 }, () => read("/api/milestones/counts", owner)));
    for (const answer of burst) expect(answer.body).toEqual(burst[0].body);
    expect(burst[0].body.byStatus.delayed).toBeGreaterThanOrEqual(1);
    // Computed once for the burst — or, on a loaded machine, once more if the milestone's after-commit work (its
    // notifications) commits in the middle of it, which rightly makes the earlier answer stale. Never once each.
    const missed = (await count("miss")) - misses;
    expect(missed).toBeGreaterThanOrEqual(1);
    expect(missed).toBeLessThanOrEqual(2);
    expect((await count("hit")) - hits).toBe(8 - missed);
  });

  it("tracks every table but the few listed as untracked", async () => {
    const rows = await queryRows<{ tablename: string; tracked: boolean }>(
      t.deps.db,
      sql`select t.tablename, exists (
            select 1 from pg_trigger g
            where g.tgrelid = format('%I', t.tablename)::regclass and g.tgname = 'note_data_update'
          ) as tracked
          from pg_tables t where t.schemaname = 'public' order by 1`,
    );
    const untracked = rows.filter((r) => !r.tracked).map((r) => r.tablename);
    expect(untracked.sort()).toEqual([...READ_CACHE_UNTRACKED_TABLES].sort());
    expect(rows.length).toBeGreaterThan(untracked.length + 20);
    // And says what each tracked table's rows belong to (a table not described would invalidate everything).
    const described = await queryRows<{ table_name: string }>(
      t.deps.db,
      sql`select table_name from data_change_scopes`,
    );
    expect(
      rows
        .filter((r) => r.tracked)
        .map((r) => r.tablename)
        .sort(),
    ).toEqual(described.map((r) => r.table_name).sort());
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
