import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disbursements, projects } from "../src/db/schema";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

let t: TestApp;
let owner: TestUser;
let otherOwner: TestUser;
let investor: TestUser;
let verifier: TestUser;
let otherVerifier: TestUser;
let admin: TestUser;
let nobody: TestUser;
const ids: Record<string, string> = {};

// Three projects: P1 (USD) and P2 (EUR) are owner's, with investor on both and verifier on P1 only;
// P3 (USD) belongs to someone else and is invisible to all of them.
beforeAll(async () => {
  t = await createTestApp();
  owner = await t.user("project_owner", { name: "Olu Owner" });
  otherOwner = await t.user("project_owner");
  investor = await t.user("investor");
  verifier = await t.user("verifier", { name: "Vera V", organization: "Meridian", expertise: ["Solar"] });
  otherVerifier = await t.user("verifier", { name: "Zed Z" });
  admin = await t.user("admin");
  nobody = await t.user("investor");

  const p1 = await makeProject(t, {
    owner,
    investors: [investor],
    verifiers: [verifier],
    name: "P1 Solar",
    totalCapital: 1_000_000,
  });
  const p2 = await makeProject(t, {
    owner,
    investors: [investor],
    name: "P2 Housing",
    totalCapital: 500_000,
    currency: "EUR",
  });
  const p3 = await makeProject(t, {
    owner: otherOwner,
    verifiers: [otherVerifier],
    name: "P3 Hidden",
    totalCapital: 300_000,
  });
  Object.assign(ids, { p1: p1.id, p2: p2.id, p3: p3.id });
  await t.deps.db
    .update(projects)
    .set({ description: "x".repeat(150) })
    .where(eq(projects.id, p2.id));

  const m1 = await makeMilestone(t, p1, { status: "verified", capitalAmount: 200_000, dueInDays: -40, verifier });
  // m1's capital was released 40 days ago: it counts 30 days ago too.
  await t.deps.db
    .update(disbursements)
    .set({ releasedAt: sql`now() - interval '40 days'` })
    .where(eq(disbursements.milestoneId, m1.id));
  await makeMilestone(t, p1, { status: "verified", capitalAmount: 30_000, dueInDays: -1, verifier });
  ids.m2 = (
    await makeMilestone(t, p1, { status: "in_verification", capitalAmount: 100_000, dueInDays: 5, verifier })
  ).id;
  ids.m3 = (await makeMilestone(t, p1, { status: "pending", capitalAmount: 150_000, dueInDays: 10 })).id;
  ids.m4 = (await makeMilestone(t, p1, { status: "rejected", capitalAmount: 50_000, dueInDays: 20, verifier })).id;
  ids.m10 = (await makeMilestone(t, p1, { status: "pending", capitalAmount: 10_000, dueInDays: -3 })).id;
  ids.m5 = (await makeMilestone(t, p2, { status: "pending", capitalAmount: 100_000, dueInDays: 2 })).id;
  ids.m6 = (await makeMilestone(t, p2, { status: "delayed", capitalAmount: 50_000, dueInDays: 30 })).id;
  await makeMilestone(t, { id: p3.id }, { status: "verified", capitalAmount: 100_000, verifier: otherVerifier });
  await makeMilestone(t, { id: p3.id }, { status: "pending", capitalAmount: 100_000, dueInDays: 1 });
});
afterAll(() => t.close());

const dashboard = async (user: TestUser) => {
  const res = await t.request("GET", "/api/dashboard", { as: user });
  expect(res.status).toBe(200);
  return res.body;
};

describe("GET /api/dashboard", () => {
  it("needs a signed-in caller", async () => {
    expect((await t.request("GET", "/api/dashboard")).status).toBe(401);
  });

  it("gives an investor the overview and control centre of their portfolio only", async () => {
    const body = await dashboard(investor);
    expect(body.overview).toEqual({
      capitalProtected: [{ currency: "USD", amount: 230_000, monthAgo: 200_000, changePercent: 15 }],
      pendingVerification: {
        capital: [
          { currency: "USD", amount: 260_000 },
          { currency: "EUR", amount: 100_000 },
        ],
        count: 4,
      },
      actionRequired: { count: 2, label: "at-risk projects" },
    });
    expect(body.role).toMatchObject({
      role: "investor",
      capitalUnderManagement: [
        { currency: "USD", amount: 1_000_000 },
        { currency: "EUR", amount: 500_000 },
      ],
      verifiedDisbursements: [
        { currency: "USD", amount: 230_000, percentOfCommitted: 23 },
        { currency: "EUR", amount: 0, percentOfCommitted: 0 },
      ],
      pendingReviewCount: 4,
      riskAlertsCount: 2,
    });
    expect(body.role.portfolio).toEqual([
      {
        id: ids.p1,
        name: "P1 Solar",
        status: "at_risk",
        totalCapital: 1_000_000,
        disbursedCapital: 230_000,
        settledCapital: 0,
        remainingCapital: 770_000,
        currency: "USD",
      },
      {
        id: ids.p2,
        name: "P2 Housing",
        status: "at_risk",
        totalCapital: 500_000,
        disbursedCapital: 0,
        settledCapital: 0,
        remainingCapital: 500_000,
        currency: "EUR",
      },
    ]);
    // The three soonest pending or in_verification milestones, overdue first.
    expect(body.role.upcomingMilestones.map((m: { id: string }) => m.id)).toEqual([ids.m10, ids.m5, ids.m2]);
    expect(body.role.upcomingMilestones[1]).toMatchObject({
      projectName: "P2 Housing",
      currency: "EUR",
      status: "pending",
    });
  });

  it("gives an owner their own projects, cut descriptions, and overdue or rejected milestones before the next five", async () => {
    const body = await dashboard(owner);
    expect(body.overview.actionRequired).toEqual({ count: 1, label: "rejected milestone to revise" });
    expect(body.role).toMatchObject({
      role: "project_owner",
      totalProjects: 2,
      totalValue: [
        { currency: "USD", amount: 1_000_000 },
        { currency: "EUR", amount: 500_000 },
      ],
      fundingProgress: [
        { currency: "USD", percent: 23 },
        { currency: "EUR", percent: 0 },
      ],
    });
    const p2 = body.role.projects.find((p: { id: string }) => p.id === ids.p2);
    expect(p2.description).toBe(`${"x".repeat(100)}...`);
    const p1 = body.role.projects.find((p: { id: string }) => p.id === ids.p1);
    expect(p1).toMatchObject({
      description: "A project built by a test factory.",
      disbursedCapital: 230_000,
      remainingCapital: 770_000,
    });
    expect(body.role.projects).toHaveLength(2);
    // What needs the owner first (the overdue m10, the rejected m4), then up to five due today or later.
    expect(body.role.upcomingMilestones.map((m: { id: string }) => m.id)).toEqual([
      ids.m10,
      ids.m4,
      ids.m5,
      ids.m2,
      ids.m3,
      ids.m6,
    ]);
  });

  it("counts for a verifier what waits on them on their projects", async () => {
    const body = await dashboard(verifier);
    expect(body.overview).toEqual({
      capitalProtected: [{ currency: "USD", amount: 230_000, monthAgo: 200_000, changePercent: 15 }],
      pendingVerification: { capital: [{ currency: "USD", amount: 260_000 }], count: 3 },
      actionRequired: { count: 3, label: "milestones to verify" },
    });
    expect(body.role).toEqual({ role: "verifier" });
  });

  it("gives an admin platform totals, recent projects and the verifiers directory", async () => {
    const body = await dashboard(admin);
    expect(body.overview).toEqual({
      capitalProtected: [{ currency: "USD", amount: 330_000, monthAgo: 200_000, changePercent: 65 }],
      pendingVerification: {
        capital: [
          { currency: "USD", amount: 360_000 },
          { currency: "EUR", amount: 100_000 },
        ],
        count: 5,
      },
      actionRequired: { count: 1, label: "project without a verifier" },
    });
    expect(body.role.totals).toEqual({ projects: 3, users: 7, verifiers: 2 });
    expect(body.role.milestonesByStatus).toEqual({
      pending: 4,
      in_verification: 1,
      verified: 3,
      rejected: 1,
      delayed: 1,
    });
    expect(body.role.recentProjects.map((p: { id: string }) => p.id).sort()).toEqual([ids.p1, ids.p2, ids.p3].sort());
    expect(body.role.verifiers).toEqual([
      {
        id: verifier.id,
        name: "Vera V",
        email: verifier.email,
        organization: "Meridian",
        expertise: ["Solar"],
        rating: null,
        completedVerifications: 3,
        projectCount: 1,
        // The factory starts and decides in the same instant; nothing has been open for 3 days.
        turnaround: expect.objectContaining({ medianHours: 0, p90Hours: 0, decided: 3, overdue: 0, slaDays: 3 }),
      },
      expect.objectContaining({ id: otherVerifier.id, completedVerifications: 1, projectCount: 1 }),
    ]);
  });

  it("puts before an admin what only an admin can move on: disputes to assign and failed releases, then projects without a verifier", async () => {
    const local = await createTestApp();
    try {
      const [admin, owner, verifier, second] = [
        await local.user("admin"),
        await local.user("project_owner"),
        await local.user("verifier"),
        await local.user("verifier"),
      ];
      const post = (path: string, as: TestUser, body: unknown) => local.request("POST", path, { as, body });
      const action = async () =>
        (await local.request("GET", "/api/dashboard", { as: admin })).body.overview.actionRequired;
      const project = await makeProject(local, { owner, verifiers: [verifier, second] });
      await makeProject(local, { owner });
      expect(await action()).toEqual({ count: 1, label: "project without a verifier" });

      // A rejection disputed by its owner waits for an admin to assign a verifier.
      const rejected = await makeMilestone(local, project, { status: "in_verification", verifier });
      expect((await post(`/api/milestones/${rejected.id}/reject`, verifier, { comments: "No invoices." })).status).toBe(
        200,
      );
      const statement = { statement: "The invoices are in the second evidence file." };
      expect((await post(`/api/milestones/${rejected.id}/dispute`, owner, statement)).status).toBe(200);
      expect(await action()).toEqual({ count: 2, label: "dispute to assign and project without a verifier" });

      // A release the custodian could not pay waits for an admin to re-instruct or cancel it.
      const approved = await makeMilestone(local, project, {
        status: "in_verification",
        verifier,
        capitalAmount: 1000,
      });
      expect((await post(`/api/milestones/${approved.id}/approve`, verifier, {})).status).toBe(200);
      const [release] = await local.deps.db
        .select()
        .from(disbursements)
        .where(eq(disbursements.milestoneId, approved.id));
      const token = await post("/api/api-tokens", admin, { name: "Custodian", scopes: ["releases:write"] });
      const failed = await local.request("POST", `/api/releases/${release.id}/fail`, {
        headers: { authorization: `Bearer ${token.body.token}` },
        body: { reason: "Account closed." },
      });
      expect(failed.status).toBe(200);
      expect(await action()).toEqual({
        count: 3,
        label: "dispute to assign, failed release and project without a verifier",
      });

      // Assigned to another verifier, the dispute is theirs to decide; the admin's list no longer names it.
      const assigned = await post(`/api/milestones/${rejected.id}/dispute/assign`, admin, { verifierId: second.id });
      expect(assigned.status).toBe(200);
      expect(await action()).toEqual({ count: 2, label: "failed release and project without a verifier" });
    } finally {
      await local.close();
    }
  });

  it("shows zeros to a user who sees no project", async () => {
    const body = await dashboard(nobody);
    expect(body.overview).toEqual({
      capitalProtected: [],
      pendingVerification: { capital: [], count: 0 },
      actionRequired: { count: 0, label: "at-risk projects" },
    });
    expect(body.role).toEqual({
      role: "investor",
      capitalUnderManagement: [],
      verifiedDisbursements: [],
      projectCount: 0,
      pendingReviewCount: 0,
      riskAlertsCount: 0,
      portfolio: [],
      upcomingMilestones: [],
    });
  });

  it("gives an investor the first milestones awaiting a decision across many projects, whichever project they are in", async () => {
    // Twelve projects, each with milestones of every status due on scattered days (an old rejected one makes a
    // project look urgent without an open milestone). The dashboard reads only the projects whose next open
    // milestone could be among the first; its answer must equal the first over every milestone.
    // Last in this file: the projects it adds would change the platform totals the admin's test reads.
    const many = await t.user("investor");
    const theirOwner = await t.user("project_owner");
    const theirVerifier = await t.user("verifier");
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 48271) % 2147483647;
      return seed % n;
    };
    const statuses = ["pending", "in_verification", "verified", "rejected", "delayed"] as const;
    for (let i = 0; i < 12; i++) {
      const project = await makeProject(t, { owner: theirOwner, investors: [many], verifiers: [theirVerifier] });
      for (let j = 0; j < 4; j++) {
        const status = statuses[next(statuses.length)];
        await makeMilestone(t, project, { status, dueInDays: next(60) - 20, verifier: theirVerifier });
      }
    }
    const first = await t.deps.db.execute(sql`
      select m.id from milestones m join project_members pm on pm.project_id = m.project_id
      where pm.user_id = ${many.id} and m.status in ('pending', 'in_verification')
      order by m.due_date, m.created_at limit 3`);
    const expected = (first as unknown as { rows: { id: string }[] }).rows.map((r) => r.id);
    expect(expected).toHaveLength(3);
    const body = await dashboard(many);
    expect(body.role.upcomingMilestones.map((m: { id: string }) => m.id)).toEqual(expected);
  });

  it("counts every project of a portfolio longer than its list, for an investor and an owner", async () => {
    // Also last: its projects change the platform totals.
    const large = await t.user("investor");
    const builder = await t.user("project_owner");
    for (let i = 0; i < 102; i++) await makeProject(t, { owner: builder, investors: [large], name: `Large ${i}` });
    const investorView = (await dashboard(large)).role;
    expect(investorView.portfolio).toHaveLength(100);
    expect(investorView.projectCount).toBe(102);
    const ownerView = (await dashboard(builder)).role;
    expect(ownerView.projects).toHaveLength(100);
    expect(ownerView.totalProjects).toBe(102);
  });
});
