// GET /api/analytics: the Reports charts' series, computed from the records over the caller's visible projects.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disbursements, milestones } from "../src/db/schema";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

let t: TestApp;
let owner: TestUser;
let investor: TestUser;
let verifier: TestUser;
let admin: TestUser;
let outsider: TestUser;

const month = (offset: number) => {
  const d = new Date();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + offset);
  return d.toISOString().slice(0, 7);
};
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);

beforeAll(async () => {
  t = await createTestApp();
  [owner, investor, verifier, admin, outsider] = await Promise.all([
    t.user("project_owner"),
    t.user("investor"),
    t.user("verifier"),
    t.user("admin"),
    t.user("investor"),
  ]);
  const project = await makeProject(t, { owner, investors: [investor], verifiers: [verifier], currency: "EUR" });
  // Three releases two months back: one settled last month, one still instructed, one cancelled.
  const twoMonthsAgo = new Date(`${month(-2)}-10T12:00:00Z`);
  const lastMonth = new Date(`${month(-1)}-05T12:00:00Z`);
  for (const [amount, status] of [
    [100_000, "settled"],
    [40_000, "instructed"],
    [7_000, "cancelled"],
  ] as const) {
    const m = await makeMilestone(t, project, { status: "verified", verifier, capitalAmount: amount });
    await t.deps.db
      .update(milestones)
      .set({ createdAt: daysAgo(120), startedAt: twoMonthsAgo, verificationDate: twoMonthsAgo })
      .where(eq(milestones.id, m.id));
    await t.deps.db
      .update(disbursements)
      .set({
        releasedAt: twoMonthsAgo,
        status,
        ...(status === "settled" ? { settlementReference: "WIRE-1", settledAt: lastMonth } : {}),
        ...(status === "cancelled" ? { cancellationReason: "Test", cancelledAt: lastMonth } : {}),
      })
      .where(eq(disbursements.milestoneId, m.id));
  }
  // Due next month, not yet decided.
  const upcoming = await makeMilestone(t, project, { capitalAmount: 25_000, dueInDays: 0 });
  await t.deps.db
    .update(milestones)
    .set({ dueDate: `${month(1)}-15` })
    .where(eq(milestones.id, upcoming.id));
});
afterAll(async () => {
  await t.close();
});

describe("GET /api/analytics", () => {
  it("sums released (instructed or settled, never cancelled) and settled capital month by month", async () => {
    const res = await t.request("GET", "/api/analytics", { as: investor });
    expect(res.status).toBe(200);
    const eur = res.body.capital.find((c: { currency: string }) => c.currency === "EUR");
    const at = (m: string) => eur.points.find((p: { month: string }) => p.month === m);
    expect(eur.points).toHaveLength(12);
    expect(at(month(-3))).toEqual({ month: month(-3), released: 0, settled: 0 });
    expect(at(month(-2))).toEqual({ month: month(-2), released: 140_000, settled: 0 });
    expect(at(month(-1))).toEqual({ month: month(-1), released: 140_000, settled: 100_000 });
    expect(at(month(0))).toEqual({ month: month(0), released: 140_000, settled: 100_000 });
  });

  it("counts milestones by their status at each month's end, and the capital due ahead", async () => {
    const { body } = await t.request("GET", "/api/analytics", { as: owner });
    const now = body.milestones.at(-1);
    expect(now).toMatchObject({ month: month(0), verified: 3, pending: 1, inVerification: 0 });
    const before = body.milestones.find((p: { month: string }) => p.month === month(-3));
    expect(before).toMatchObject({ verified: 0, pending: 3 });
    const eur = body.upcoming.find((c: { currency: string }) => c.currency === "EUR");
    expect(eur.points).toHaveLength(12);
    expect(eur.points.find((p: { month: string }) => p.month === month(1)).amount).toBe(25_000);
  });

  it("puts the open rest of a partly released milestone in the month it is due, and what is past due in this one", async () => {
    const lp = await t.user("investor");
    const checker = await t.user("verifier");
    const project = await makeProject(t, { owner, investors: [lp], verifiers: [checker], currency: "GBP" });
    const later = await makeMilestone(t, project, { capitalAmount: 100_000, dueInDays: 0 });
    await t.deps.db
      .update(milestones)
      .set({ dueDate: `${month(2)}-10` })
      .where(eq(milestones.id, later.id));
    expect((await t.request("POST", `/api/milestones/${later.id}/start`, { as: checker })).status).toBe(200);
    const partial = await t.request("POST", `/api/milestones/${later.id}/approve`, {
      as: checker,
      body: { share: 30, comments: "Only the first of three phases is done." },
    });
    expect(partial.status, JSON.stringify(partial.body)).toBe(200);
    await makeMilestone(t, project, { capitalAmount: 50_000, dueInDays: -40 });
    await makeMilestone(t, project, { capitalAmount: 20_000, dueInDays: 0 });
    await makeMilestone(t, project, { capitalAmount: 9_000, status: "delayed", dueInDays: 0 });

    const { body } = await t.request("GET", "/api/analytics", { as: lp });
    const gbp = body.upcoming.find((c: { currency: string }) => c.currency === "GBP");
    const at = (m: string) => gbp.points.find((p: { month: string }) => p.month === m).amount;
    expect(at(month(0))).toBe(70_000);
    expect(at(month(1))).toBe(0);
    expect(at(month(2))).toBe(70_000);
    const dashboard = await t.request("GET", "/api/dashboard", { as: lp });
    expect(dashboard.body.overview.pendingVerification.capital).toEqual([{ currency: "GBP", amount: 140_000 }]);
  });

  it("shows turnaround only to admins, and nothing of projects the caller cannot see", async () => {
    const mine = await t.request("GET", "/api/analytics", { as: investor });
    expect(mine.body.turnaround).toBeNull();
    const all = await t.request("GET", "/api/analytics", { as: admin });
    const total = all.body.turnaround.reduce((sum: number, b: { count: number }) => sum + b.count, 0);
    expect(total).toBeGreaterThanOrEqual(3);
    expect(all.body.turnaround.map((b: { bucket: string }) => b.bucket)).toHaveLength(6);
    const none = await t.request("GET", "/api/analytics", { as: outsider });
    expect(none.body.capital).toEqual([]);
    expect(none.body.upcoming).toEqual([]);
    expect(none.body.milestones.every((p: { pending: number; verified: number }) => p.pending + p.verified === 0)).toBe(
      true,
    );
    expect((await t.request("GET", "/api/analytics", { as: null })).status).toBe(401);
  });
});
