// A project's status follows the calendar: it is derived on read (services/projects/status.ts) from stored facts and
// today's date, so a due date passing puts a project at risk in lists, filters, counts, exports and dashboards
// without any write. The SQL is deriveProjectStatus (the documented definition), checked over generated cases.
import {
  deriveProjectStatus,
  earliestTodayIso,
  MILESTONE_STATUSES,
  type MilestoneStatus,
  PROJECT_STATUSES,
} from "@tranche/domain";
import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disbursements, milestones, projectRollups, verificationDecisions } from "../src/db/schema";
import { moneyParam } from "../src/lib/money";
import { refreshProjectRollup } from "../src/services/projects/rollup";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.user("admin");
});
afterAll(() => t.close());

/** A date `days` from the date the server treats as today (negative: before it). */
const dayFrom = (days: number) => {
  const [y, m, d] = earliestTodayIso().split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
};

describe("a due date passing, with no write", () => {
  it("puts the project at risk in the list, its filter and counts, the export, the detail and every dashboard", async () => {
    const owner = await t.user("project_owner");
    const investor = await t.user("investor");
    const project = await makeProject(t, { owner, investors: [investor], name: "Calendar Farm" });
    const milestone = await makeMilestone(t, project, { dueInDays: 30 });
    const before = await t.request("GET", `/api/projects/${project.id}`, { as: investor });
    expect(before.body.project?.status ?? before.body.status).toBe("pending_verification");

    // Time passes: the milestone's due date is now yesterday. Only the date moves (as the calendar would; the
    // rollup holds the same due date), the stored project row is not touched.
    await t.deps.db
      .update(milestones)
      .set({ dueDate: dayFrom(-1) })
      .where(eq(milestones.id, milestone.id));
    await t.deps.db
      .update(projectRollups)
      .set({ nextDueDate: dayFrom(-1) })
      .where(eq(projectRollups.projectId, project.id));

    const detail = await t.request("GET", `/api/projects/${project.id}`, { as: investor });
    expect(detail.body.project?.status ?? detail.body.status).toBe("at_risk");
    const list = await t.request("GET", "/api/projects?q=Calendar", { as: investor });
    expect(list.body.items.map((p: { status: string }) => p.status)).toEqual(["at_risk"]);
    const filtered = await t.request("GET", "/api/projects?status=at_risk&q=Calendar", { as: investor });
    expect(filtered.body.items.map((p: { id: string }) => p.id)).toEqual([project.id]);
    const pendingTab = await t.request("GET", "/api/projects?status=pending_verification&q=Calendar", {
      as: investor,
    });
    expect(pendingTab.body.items).toEqual([]);
    const counts = await t.request("GET", "/api/projects/counts?q=Calendar", { as: investor });
    expect(counts.body).toMatchObject({ total: 1, byStatus: { at_risk: 1, pending_verification: 0 } });
    const csv = await t.request("GET", "/api/projects/export.csv?q=Calendar", { as: investor });
    expect(String(csv.body)).toMatch(/Calendar Farm,at_risk/);

    const investorDashboard = await t.request("GET", "/api/dashboard", { as: investor });
    expect(investorDashboard.body.role.riskAlertsCount).toBe(1);
    expect(investorDashboard.body.role.portfolio[0].status).toBe("at_risk");
    expect(investorDashboard.body.overview.actionRequired.count).toBe(1);
    const ownerDashboard = await t.request("GET", "/api/dashboard", { as: owner });
    expect(ownerDashboard.body.role.projects[0].status).toBe("at_risk");
    const adminDashboard = await t.request("GET", "/api/dashboard", { as: admin });
    const recent = adminDashboard.body.role.recentProjects.find((p: { id: string }) => p.id === project.id);
    expect(recent.status).toBe("at_risk");
  });

  it("counts a milestone due today anywhere on earth as not yet past due", async () => {
    const owner = await t.user("project_owner");
    const project = await makeProject(t, { owner });
    await makeMilestone(t, project, { dueInDays: 0 });
    await t.deps.db
      .update(milestones)
      .set({ dueDate: dayFrom(0) })
      .where(eq(milestones.projectId, project.id));
    await refreshProjectRollup(t.deps.db, project.id);
    const res = await t.request("GET", `/api/projects/${project.id}`, { as: owner });
    expect(res.body.project?.status ?? res.body.status).toBe("pending_verification");
  });
});

describe("the SQL status and deriveProjectStatus", () => {
  it("agree over generated projects (milestone statuses, due dates around today, releases of every status)", async () => {
    const owner = await t.user("project_owner");
    const verifier = await t.user("verifier");
    const today = earliestTodayIso();
    const milestoneArb = fc.record({
      status: fc.constantFrom<MilestoneStatus>(...MILESTONE_STATUSES),
      dueInDays: fc.integer({ min: -3, max: 3 }),
      amount: fc.integer({ min: 1, max: 400 }),
      release: fc.option(fc.constantFrom("instructed", "settled", "cancelled"), { nil: undefined }),
    });
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1000 }),
        fc.array(milestoneArb, { maxLength: 4 }),
        async (total, rows) => {
          const project = await makeProject(t, { owner, verifiers: [verifier], totalCapital: total });
          let released = 0;
          for (const row of rows) {
            const [m] = await t.deps.db
              .insert(milestones)
              .values({
                projectId: project.id,
                title: "Generated",
                description: "A generated milestone.",
                dueDate: dayFrom(row.dueInDays),
                capitalAmount: moneyParam(row.amount),
                status: row.status,
                verifierId: verifier.id,
              })
              .returning();
            if (row.release) {
              // A release names the approval that made it (the database checks it).
              const [approval] = await t.deps.db
                .insert(verificationDecisions)
                .values({ milestoneId: m.id, round: 1, userId: verifier.id, kind: "approve", policyVersion: 0 })
                .returning({ id: verificationDecisions.id });
              await t.deps.db.insert(disbursements).values({
                decisionIds: [approval.id],
                milestoneId: m.id,
                projectId: project.id,
                amount: moneyParam(row.amount),
                currency: "USD",
                releasedBy: verifier.id,
                status: row.release,
                ...(row.release === "settled" ? { settledAt: new Date(), settlementReference: "S-1" } : {}),
                ...(row.release === "cancelled"
                  ? { cancelledAt: new Date(), cancellationReason: "Generated.", failedAt: new Date() }
                  : {}),
              });
              if (row.release !== "cancelled") released += row.amount;
            }
          }
          await refreshProjectRollup(t.deps.db, project.id);
          const expected = deriveProjectStatus({
            totalCapital: total,
            disbursedCapital: released,
            milestones: rows.map((r) => ({ status: r.status, dueDate: dayFrom(r.dueInDays) })),
            today,
          });
          seen.add(expected);
          const res = await t.request("GET", `/api/projects/${project.id}`, { as: admin });
          expect(res.body.project?.status ?? res.body.status).toBe(expected);
        },
      ),
      { numRuns: 60, seed: 17 },
    );
    expect([...seen].sort()).toEqual([...PROJECT_STATUSES].sort());
  });

  it("has no reader of the stored status column left: every project status the API answers is derived", async () => {
    // The stored column is only what the last write computed; the API must never answer it. Make it disagree.
    const owner = await t.user("project_owner");
    const project = await makeProject(t, { owner, name: "Stored Disagreement" });
    await t.deps.db.execute(sql`update projects set status = 'funded' where id = ${project.id}`);
    const list = await t.request("GET", "/api/projects?q=Stored%20Disagreement", { as: owner });
    expect(list.body.items[0].status).toBe("pending_verification");
  });
});

describe("a due date that is today somewhere on earth", () => {
  it("is not 'in the past' for assertNotPast, on a fixed clock", async () => {
    const { assertNotPast } = await import("../src/services/milestones/rules");
    // 20:00 on 1 May 2020 in New York (UTC−4) is 00:00 on 2 May in UTC.
    expect(() => assertNotPast("2020-05-01", new Date("2020-05-02T00:00:00Z"))).not.toThrow();
    // The last hour of 1 May at UTC−12.
    expect(() => assertNotPast("2020-05-01", new Date("2020-05-02T11:59:00Z"))).not.toThrow();
    expect(() => assertNotPast("2020-05-01", new Date("2020-05-02T12:00:00Z"))).toThrow(/in the past/);
  });

  it("is accepted as a new milestone's due date; the day before it is refused", async () => {
    const owner = await t.user("project_owner");
    const project = await makeProject(t, { owner });
    const create = (dueDate: string) =>
      t.request("POST", `/api/projects/${project.id}/milestones`, {
        as: owner,
        body: { title: "Today somewhere", description: "Due today.", dueDate, capitalAmount: 10 },
      });
    expect((await create(earliestTodayIso())).status).toBe(201);
    const past = await create(dayFrom(-1));
    expect(past.status).toBe(400);
    expect(past.body.error.details.dueDate).toBe("Due date cannot be in the past.");
  });
});
