// Data and correctness found in the careful-user walkthrough: one report per decision, demo data whose dates tell
// a consistent story, a ceiling on capital, every decision on the verifier's Completed list, and the owner's
// upcoming milestones leading with what needs them.
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../src/db/client";
import { auditEvents, milestones, projects, verificationReports } from "../src/db/schema";
import { seedDemoData } from "../src/seed";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

let t: TestApp;
let owner: TestUser;
let verifier: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  [owner, verifier] = await Promise.all([t.user("project_owner"), t.user("verifier")]);
});
afterAll(() => t.close());

const post = (path: string, as: TestUser, body?: unknown) => t.request("POST", path, { as, body });

describe("one verification report per decision", () => {
  it("edits the report on a repeat submit, audited with what it said before", async () => {
    const project = await makeProject(t, { owner, verifiers: [verifier] });
    const milestone = await makeMilestone(t, project, { status: "in_verification", verifier });
    const path = `/api/milestones/${milestone.id}`;
    expect((await post(`${path}/approve`, verifier, { comments: "Foundations poured." })).status).toBe(200);

    const first = await post(`${path}/report`, verifier, {});
    expect(first.status).toBe(201);
    const view = await t.request("GET", `${path}/verification`, { as: verifier });
    expect(view.body.report).toMatchObject({ id: first.body.id });

    const again = await post(`${path}/report`, verifier, { comments: "Foundations poured; slab test attached." });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.comments).toBe("Foundations poured; slab test attached.");
    expect(Date.parse(again.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(again.body.createdAt));

    const rows = await t.deps.db
      .select()
      .from(verificationReports)
      .where(eq(verificationReports.milestoneId, milestone.id));
    expect(rows).toHaveLength(1);
    const listed = await t.request("GET", "/api/reports", { as: owner });
    expect(listed.body.items.filter((r: { milestoneId: string }) => r.milestoneId === milestone.id)).toHaveLength(1);

    const audit = await t.deps.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.entityId, first.body.id))
      .orderBy(asc(auditEvents.id));
    expect(audit.map((e) => e.action)).toEqual(["report.submitted", "report.updated"]);
    expect(audit[1].before).toMatchObject({ comments: "Foundations poured." });
    expect(audit[1].after).toMatchObject({ comments: "Foundations poured; slab test attached." });
  });

  it("gives a new decision (reject, resubmit, approve) its own report", async () => {
    const project = await makeProject(t, { owner, verifiers: [verifier] });
    const milestone = await makeMilestone(t, project, { status: "in_verification", verifier });
    const path = `/api/milestones/${milestone.id}`;
    await post(`${path}/reject`, verifier, { comments: "Missing invoice." });
    expect((await post(`${path}/report`, verifier, {})).status).toBe(201);
    await post(`${path}/resubmit`, owner);
    await post(`${path}/start`, verifier);
    await post(`${path}/approve`, verifier, {});
    expect((await post(`${path}/report`, verifier, {})).status).toBe(201);
    expect((await post(`${path}/report`, verifier, {})).status).toBe(200);
    const rows = await t.deps.db
      .select({ status: verificationReports.status })
      .from(verificationReports)
      .where(eq(verificationReports.milestoneId, milestone.id))
      .orderBy(asc(verificationReports.createdAt));
    expect(rows.map((r) => r.status)).toEqual(["rejected", "verified"]);
  });
});

describe("total capital ceiling", () => {
  const body = { name: "Ceiling", description: "A project at the ceiling.", location: "Oslo", currency: "USD" };

  it("accepts 100 billion and refuses more with a message naming the field, changing nothing", async () => {
    const ok = await post("/api/projects", owner, { ...body, totalCapital: 100_000_000_000 });
    expect(ok.status).toBe(201);
    const before = await t.deps.db.select({ n: sql<number>`count(*)::int` }).from(projects);
    const refused = await post("/api/projects", owner, { ...body, totalCapital: 1e15 });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.totalCapital).toBe("Total capital must be at most 100,000,000,000.");
    expect(await t.deps.db.select({ n: sql<number>`count(*)::int` }).from(projects)).toEqual(before);
    const edit = await t.request("PATCH", `/api/projects/${ok.body.id}`, { as: owner, body: { totalCapital: 2e11 } });
    expect(edit.status).toBe(400);
    expect(edit.body.error.details.totalCapital).toBe("Total capital must be at most 100,000,000,000.");
  });
});

describe("the verifier's completed decisions", () => {
  it("lists every decision, newest first, a page at a time; the dashboard keeps the 5 most recent", async () => {
    const decider = await t.user("verifier");
    const project = await makeProject(t, { owner, verifiers: [decider], totalCapital: 10_000_000 });
    const made: string[] = [];
    for (let i = 0; i < 7; i++) {
      const m = await makeMilestone(t, project, { status: i % 3 === 0 ? "rejected" : "verified", verifier: decider });
      made.push(m.id);
    }
    const queue = await t.request("GET", "/api/verifications", { as: decider });
    expect(queue.body.completed).toHaveLength(5);
    expect(queue.body.counts.completed).toBe(7);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { status: number; body: any } = await t.request(
        "GET",
        `/api/verifications/completed?limit=3${cursor ? `&cursor=${cursor}` : ""}`,
        { as: decider },
      );
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(7);
      seen.push(...res.body.items.map((item: { milestoneId: string }) => item.milestoneId));
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...made].reverse());

    expect((await t.request("GET", "/api/verifications/completed?cursor=x", { as: decider })).status).toBe(400);
    expect((await t.request("GET", "/api/verifications/completed?limit=0", { as: decider })).status).toBe(400);
    expect((await t.request("GET", "/api/verifications/completed", { as: owner })).status).toBe(403);
  });
});

describe("the verifier's pending queue", () => {
  it("pages what waits on them earliest due first, searches title and description, and the dashboard holds the first page", async () => {
    const checker = await t.user("verifier");
    const other = await t.user("verifier");
    const a = await makeProject(t, { owner, verifiers: [checker, other], totalCapital: 100_000_000 });
    const b = await makeProject(t, { owner, verifiers: [checker], totalCapital: 100_000_000 });
    // A project they also invest in is a conflict: its milestones never wait on them.
    const conflicted = await makeProject(t, { owner, verifiers: [checker], investors: [checker] });
    await makeMilestone(t, conflicted, { title: "Conflicted", dueInDays: 1 });
    await makeMilestone(t, a, { title: "Theirs", status: "in_verification", verifier: other, dueInDays: 1 });
    await makeMilestone(t, a, { title: "Done", status: "verified", verifier: checker, dueInDays: 1 });
    const waiting: { id: string; dueDate: string }[] = [];
    for (let i = 0; i < 30; i++) {
      const m = await makeMilestone(t, i % 2 ? a : b, { title: `Tranche ${i}`, dueInDays: 40 - (i % 12) });
      waiting.push(m);
    }
    waiting.push(await makeMilestone(t, b, { title: "Mine", status: "in_verification", verifier: checker }));
    const [described] = waiting;
    await t.deps.db
      .update(milestones)
      .set({ description: "Slab pour at 100% strength_test" })
      .where(eq(milestones.id, described.id));
    const order = [...waiting]
      .sort((x, y) => x.dueDate.localeCompare(y.dueDate) || (x.id < y.id ? -1 : 1))
      .map((m) => m.id);

    const queue = await t.request("GET", "/api/verifications", { as: checker });
    expect(queue.status).toBe(200);
    expect(queue.body.counts.pending).toBe(31);
    expect(queue.body.pending.map((m: { milestoneId: string }) => m.milestoneId)).toEqual(order.slice(0, 25));
    expect(queue.body.pendingNextCursor).toEqual(expect.any(String));

    const seen: string[] = [];
    let cursor: string | null = queue.body.pendingNextCursor;
    seen.push(...queue.body.pending.map((m: { milestoneId: string }) => m.milestoneId));
    while (cursor) {
      const res: { status: number; body: any } = await t.request(
        "GET",
        `/api/verifications/pending?limit=4&cursor=${cursor}`,
        { as: checker },
      );
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(31);
      seen.push(...res.body.items.map((m: { milestoneId: string }) => m.milestoneId));
      cursor = res.body.nextCursor;
    }
    expect(seen).toEqual(order);

    // The description matches, with % and _ taken literally; the title matches case-insensitively.
    const byDescription = await t.request("GET", "/api/verifications/pending?q=100%25%20STRENGTH_", { as: checker });
    expect(byDescription.body).toMatchObject({ total: 1, nextCursor: null });
    expect(byDescription.body.items.map((m: { milestoneId: string }) => m.milestoneId)).toEqual([described.id]);
    expect((await t.request("GET", "/api/verifications/pending?q=100_", { as: checker })).body.total).toBe(0);
    const byTitle = await t.request("GET", "/api/verifications/pending?q=tranche%202", { as: checker });
    expect(byTitle.body.items.map((m: { title: string }) => m.title).sort()).toEqual([
      "Tranche 2",
      "Tranche 20",
      "Tranche 21",
      "Tranche 22",
      "Tranche 23",
      "Tranche 24",
      "Tranche 25",
      "Tranche 26",
      "Tranche 27",
      "Tranche 28",
      "Tranche 29",
    ]);
    expect((await t.request("GET", "/api/verifications/pending?q=Conflicted", { as: checker })).body.total).toBe(0);

    expect((await t.request("GET", "/api/verifications/pending?cursor=x", { as: checker })).status).toBe(400);
    expect((await t.request("GET", "/api/verifications/pending?limit=101", { as: checker })).status).toBe(400);
    expect((await t.request("GET", "/api/verifications/pending?sort=due", { as: checker })).status).toBe(400);
    expect((await t.request("GET", "/api/verifications/pending", { as: owner })).status).toBe(403);
  });
});

describe("the owner's upcoming milestones", () => {
  it("shows rejected and overdue milestones first, then the next ones due", async () => {
    const soloOwner = await t.user("project_owner");
    const project = await makeProject(t, { owner: soloOwner, verifiers: [verifier] });
    const next = await makeMilestone(t, project, { title: "Next", dueInDays: 5 });
    const overdue = await makeMilestone(t, project, { title: "Overdue", dueInDays: -3 });
    const rejected = await makeMilestone(t, project, {
      title: "Rejected",
      dueInDays: 20,
      status: "rejected",
      verifier,
    });
    await makeMilestone(t, project, { title: "Done", dueInDays: -30, status: "verified", verifier });
    const dashboard = await t.request("GET", "/api/dashboard", { as: soloOwner });
    expect(dashboard.status).toBe(200);
    expect(dashboard.body.role.upcomingMilestones.map((m: { id: string }) => m.id)).toEqual([
      overdue.id,
      rejected.id,
      next.id,
    ]);
  });
});

describe("demo data", () => {
  it("tells a consistent story: created before started before decided, nothing in the future", async () => {
    const demo = await createTestApp();
    try {
      await seedDemoData(demo.deps.db);
      const now = Date.now();
      const rows = await queryRows<{
        title: string;
        project_created: Date;
        start_date: string;
        created_at: Date;
        started_at: Date | null;
        verification_date: Date | null;
        released_at: Date | null;
      }>(
        demo.deps.db,
        sql`select m.title, p.created_at as project_created, p.start_date::text, m.created_at, m.started_at,
                   m.verification_date, d.created_at as released_at
            from milestones m join projects p on p.id = m.project_id
            left join disbursements d on d.milestone_id = m.id`,
      );
      expect(rows.length).toBeGreaterThan(10);
      for (const r of rows) {
        const created = new Date(r.created_at).getTime();
        expect(new Date(r.project_created).getTime(), r.title).toBeLessThan(created);
        expect(created, r.title).toBeLessThan(now);
        if (r.started_at) expect(new Date(r.started_at).getTime(), r.title).toBeGreaterThan(created);
        if (r.started_at) expect(new Date(r.started_at).getTime(), r.title).toBeLessThan(now);
        if (r.verification_date) {
          expect(r.started_at, r.title).not.toBeNull();
          expect(new Date(r.verification_date).getTime(), r.title).toBeGreaterThan(new Date(r.started_at!).getTime());
          expect(new Date(r.verification_date).getTime(), r.title).toBeLessThan(now);
        }
        if (r.released_at) expect(new Date(r.released_at).getTime()).toBe(new Date(r.verification_date!).getTime());
      }
      // Every release has its certificate from the start, citing its approval event (a download only reads it).
      const uncertified = await queryRows<{ id: string; cited: boolean | null }>(
        demo.deps.db,
        sql`select d.id, (c.facts->'auditEvent') is not null and c.facts->'auditEvent' <> 'null'::jsonb as cited
            from disbursements d left join release_certificates c on c.release_id = d.id
            where c.release_id is null or (c.facts->'auditEvent') = 'null'::jsonb`,
      );
      expect(uncertified).toEqual([]);
      // A project that started in the past was created before it started.
      const started = await demo.deps.db
        .select({ createdAt: projects.createdAt, startDate: projects.startDate })
        .from(projects);
      for (const p of started) {
        if (p.startDate && Date.parse(p.startDate) < now) {
          expect(p.createdAt.getTime()).toBeLessThan(Date.parse(p.startDate));
        }
      }
      // Admin's Recent Projects: realistic creation dates, not all today.
      const adminUser = await demo.user("admin");
      const dashboard = await demo.request("GET", "/api/dashboard", { as: adminUser });
      const created = dashboard.body.role.recentProjects.map((p: { createdAt: string }) => Date.parse(p.createdAt));
      expect(created.every((at: number) => at < now - 7 * 86_400_000)).toBe(true);
      expect(new Set(created).size).toBe(created.length);
      const panels = await demo.deps.db
        .select({ createdAt: milestones.createdAt })
        .from(milestones)
        .where(eq(milestones.title, "Panel and inverter delivery"));
      expect(panels).toHaveLength(1);
    } finally {
      await demo.close();
    }
  });
});
