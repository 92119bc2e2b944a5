// Keyset pagination on the list APIs (issue 11): every sort pages through the whole visible set exactly once, in
// order, whatever the page size; filters and trigram search run on the server; bad cursors and limits are 400.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../src/db/client";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestResponse, type TestUser } from "./harness";

let t: TestApp;
let admin: TestUser;
let owner: TestUser;
let investor: TestUser;
let verifier: TestUser;
const visible: string[] = [];
let hidden: string;

beforeAll(async () => {
  t = await createTestApp();
  [admin, owner, investor, verifier] = await Promise.all([
    t.user("admin"),
    t.user("project_owner"),
    t.user("investor", { name: "Pat Paging" }),
    t.user("verifier", { name: "Vic Keyset", organization: "Keyset Assurance" }),
  ]);
  // Names sort differently from creation order; two share a name, so the id breaks the tie.
  for (const [i, name] of [
    "Delta Wind",
    "Alpha Solar",
    "Echo Water",
    "Bravo Grid",
    "Alpha Solar",
    "Charlie Rail",
    "Foxtrot Heat",
  ].entries()) {
    const p = await makeProject(t, { owner, investors: [investor], verifiers: [verifier], name });
    await makeMilestone(t, p, {
      title: `Tranche ${name} ${i}`,
      dueInDays: 10 + ((i * 17) % 23),
      capitalAmount: 10_000 * (i + 1),
    });
    visible.push(p.id);
  }
  hidden = (await makeProject(t, { owner, name: "Alpha Hidden" })).id;
});
afterAll(() => t.close());

/** Every page of `path` (with `limit`), following nextCursor; fails on a repeated item. */
async function pageThrough(path: string, as: TestUser, limit: number) {
  const items: { id: string; [key: string]: unknown }[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 50; pages++) {
    const sep = path.includes("?") ? "&" : "?";
    const res: TestResponse = await t.request(
      "GET",
      `${path}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`,
      { as },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.items.length).toBeLessThanOrEqual(limit);
    items.push(...res.body.items);
    cursor = res.body.nextCursor;
    if (!cursor) break;
  }
  expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
  return items;
}

describe("GET /api/projects pages", () => {
  it("through every sort, each visible project exactly once and in order, none the caller may not see", async () => {
    const byName = await pageThrough("/api/projects?sort=name", investor, 2);
    expect(byName.map((p) => p.id).sort()).toEqual([...visible].sort());
    const names = byName.map((p) => p.name as string);
    expect(names).toEqual([...names].sort());
    const newest = await pageThrough("/api/projects", investor, 3);
    expect(newest.map((p) => p.id)).toEqual([...visible].reverse());
    for (const sort of ["next_due", "activity"]) {
      const all = await pageThrough(`/api/projects?sort=${sort}`, investor, 4);
      expect(all.map((p) => p.id).sort()).toEqual([...visible].sort());
    }
    const asAdmin = await pageThrough("/api/projects?sort=name", admin, 5);
    expect(asAdmin.map((p) => p.id)).toContain(hidden);
  });

  it("searches with the trigram index and filters on the server; default limit 25", async () => {
    const [ext] = await queryRows<{ extname: string }>(
      t.deps.db,
      sql`select extname from pg_extension where extname = 'pg_trgm'`,
    );
    expect(ext?.extname).toBe("pg_trgm");
    const alpha = await t.request("GET", "/api/projects?q=alpha&sort=name", { as: investor });
    expect(alpha.body.items.map((p: { name: string }) => p.name)).toEqual(["Alpha Solar", "Alpha Solar"]);
    expect(alpha.body.nextCursor).toBeNull();
    const pending = await t.request("GET", "/api/projects?status=at_risk", { as: investor });
    expect(pending.body.items).toEqual([]);
    const first = await t.request("GET", "/api/projects", { as: admin });
    expect(first.body.items.length).toBe(visible.length + 1);
    expect(first.body.items[0]).toMatchObject({ milestoneCount: expect.any(Number), disbursedCapital: 0 });
  });

  it("refuses a bad limit, a forged cursor and another sort's cursor with 400 naming the field, never a 500", async () => {
    for (const limit of ["0", "101", "x"]) {
      const res = await t.request("GET", `/api/projects?limit=${limit}`, { as: investor });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toHaveProperty("limit");
    }
    const page = await t.request("GET", "/api/projects?sort=name&limit=1", { as: investor });
    const forged = (k: unknown[], s = "name") => Buffer.from(JSON.stringify({ s, k })).toString("base64url");
    const bad = [
      "not a cursor!",
      "eyJub3QiOiJqc29uIg",
      forged(["Alpha", "not-a-uuid"]),
      forged(["2026-02-31", visible[0]], "next_due"),
      forged(["2026-13-01 10:00:00+00", visible[0]], "newest"),
    ];
    // The last one is a real cursor, but of the name sort: refused, not misread.
    for (const cursor of [...bad, page.body.nextCursor]) {
      const res = await t.request("GET", `/api/projects?sort=newest&cursor=${encodeURIComponent(cursor)}`, {
        as: investor,
      });
      expect(res.status, cursor).toBe(400);
      expect(res.body.error.details).toHaveProperty("cursor");
    }
    expect((await t.request("GET", "/api/projects?sort=biggest", { as: investor })).status).toBe(400);
  });
});

describe("the other lists page the same way", () => {
  it("milestones by due date and by amount, filtered by project and searched by title", async () => {
    const due = await pageThrough("/api/milestones", investor, 2);
    expect(due).toHaveLength(visible.length);
    const dates = due.map((m) => m.dueDate as string);
    expect(dates).toEqual([...dates].sort());
    const amount = await pageThrough("/api/milestones?sort=amount", investor, 3);
    const amounts = amount.map((m) => m.capitalAmount as number);
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    const one = await t.request("GET", `/api/milestones?projectId=${visible[2]}`, { as: investor });
    expect(one.body.items.map((m: { projectId: string }) => m.projectId)).toEqual([visible[2]]);
    const found = await t.request("GET", "/api/milestones?q=echo", { as: investor });
    expect(found.body.items.map((m: { title: string }) => m.title)).toEqual(["Tranche Echo Water 2"]);
  });

  it("users (admins) by name and role, verifiers by name and search, reports", async () => {
    const everyone = await pageThrough("/api/users?sort=name", admin, 2);
    expect(everyone.map((u) => u.id)).toEqual(expect.arrayContaining([admin.id, owner.id, investor.id, verifier.id]));
    const investors = await t.request("GET", "/api/users?role=investor&q=paging", { as: admin });
    expect(investors.body.items.map((u: { id: string }) => u.id)).toEqual([investor.id]);
    const verifiers = await pageThrough("/api/verifiers?q=keyset", investor, 1);
    expect(verifiers.map((v) => v.id)).toEqual([verifier.id]);
    const reports = await t.request("GET", "/api/reports?limit=5", { as: investor });
    expect(reports.body).toEqual({ items: [], nextCursor: null });
    expect((await t.request("GET", "/api/reports?sort=oldest", { as: investor })).status).toBe(200);
    // Every user by email, and verifiers by rating (unrated last), each page after page without a repeat.
    const byEmail = (await pageThrough("/api/users?sort=email", admin, 2)).map((u) => u.email as string);
    expect(byEmail).toHaveLength(everyone.length);
    // (Compared by first letter: the database's collation orders punctuation unlike a JavaScript sort.)
    const initials = byEmail.map((email) => email[0]);
    expect(initials).toEqual([...initials].sort());
    await t.deps.db.execute(sql`update users set rating = 4.5 where id = ${verifier.id}`);
    const byRating = await pageThrough("/api/verifiers?sort=rating", investor, 1);
    const ratings = byRating.map((v) => (v.rating as number | null) ?? 0);
    expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
    expect(byRating[0].id).toBe(verifier.id);
    expect((await t.request("GET", "/api/users?role=wizard", { as: admin })).status).toBe(400);
  });
});

describe("name sorts", () => {
  it("order numbers inside names by value, page after page: projects, users and verifiers", async () => {
    const numbers = [10, 2, 1, 21];
    for (const n of numbers) {
      await makeProject(t, { owner, name: `Numbered Site ${n}` });
      await t.user("verifier", { name: `Numbered Verifier ${n}` });
    }
    const natural = (prefix: string) => [1, 2, 10, 21].map((n) => `${prefix} ${n}`);
    const names = async (path: string, as: TestUser) => (await pageThrough(path, as, 1)).map((i) => i.name);
    expect(await names("/api/projects?sort=name&q=numbered", owner)).toEqual(natural("Numbered Site"));
    expect(await names("/api/users?sort=name&q=numbered", admin)).toEqual(natural("Numbered Verifier"));
    expect(await names("/api/verifiers?sort=name&q=numbered", investor)).toEqual(natural("Numbered Verifier"));
  });

  it("sort emails the same way, page after page: user2 before user10, Zed beside zed", async () => {
    for (const local of ["user10", "Zed", "user2", "user1", "alpha", "user21", "zeta"]) {
      await t.user("investor", { email: `${local}@natural-email.test`, name: `Emailed ${local}` });
    }
    const emails = (await pageThrough("/api/users?sort=email&q=natural-email", admin, 2)).map((i) => i.email);
    expect(emails).toEqual(
      ["alpha", "user1", "user2", "user10", "user21", "Zed", "zeta"].map((local) => `${local}@natural-email.test`),
    );
  });
});
