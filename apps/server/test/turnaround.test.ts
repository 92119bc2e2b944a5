// Turnaround (issue 13): each verifier's median and 90th percentile time from start to decision, open and overdue
// verifications, on /api/verifiers and the admin dashboard; a verification open longer than VERIFICATION_SLA_DAYS
// notifies its verifier and the admins once, however many sweeps run at the same time.
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, milestones, notifications } from "../src/db/schema";
import {
  createOverdueSweeper,
  notifyOverdueVerifications,
  TURNAROUND_WINDOW,
} from "../src/services/verifiers/turnaround";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

const HOUR = 3_600_000;
let t: TestApp;
let owner: TestUser;
let admin: TestUser;
let quick: TestUser;
let idle: TestUser;

beforeAll(async () => {
  t = await createTestApp({ VERIFICATION_SLA_DAYS: 3 });
  [owner, admin, quick, idle] = await Promise.all([
    t.user("project_owner"),
    t.user("admin"),
    t.user("verifier"),
    t.user("verifier"),
  ]);
});
afterAll(() => t.close());

/** A milestone `verifier` started `startedHoursAgo` and decided `decidedAfterHours` later (or still has open). */
async function verification(verifier: TestUser, startedHoursAgo: number, decidedAfterHours?: number) {
  const project = await makeProject(t, { owner, verifiers: [verifier] });
  const decided = decidedAfterHours !== undefined;
  const milestone = await makeMilestone(t, project, {
    status: decided ? "rejected" : "in_verification",
    verifier,
  });
  const startedAt = new Date(Date.now() - startedHoursAgo * HOUR);
  await t.deps.db
    .update(milestones)
    .set({
      startedAt,
      verificationDate: decided ? new Date(startedAt.getTime() + decidedAfterHours * HOUR) : null,
    })
    .where(eq(milestones.id, milestone.id));
  return milestone;
}

describe("turnaround", () => {
  it("shows each verifier's median, 90th percentile, open and overdue, and notifies an overdue one once", async () => {
    // Decided in 10, 20, 30, 40 and 100 hours: median 30, p90 76 (linear between 40 and 100).
    for (const [ago, after] of [
      [200, 10],
      [200, 20],
      [200, 30],
      [200, 40],
      [200, 100],
    ]) {
      await verification(quick, ago, after);
    }
    const fresh = await verification(quick, 5);
    const late = await verification(quick, 4 * 24);

    const directory = await t.request("GET", "/api/verifiers?limit=100", { as: admin });
    expect(directory.status).toBe(200);
    const mine = directory.body.items.find((v: { id: string }) => v.id === quick.id);
    expect(mine.turnaround).toEqual({ medianHours: 30, p90Hours: 76, decided: 5, open: 2, overdue: 1, slaDays: 3 });
    const none = directory.body.items.find((v: { id: string }) => v.id === idle.id);
    expect(none.turnaround).toEqual({ medianHours: null, p90Hours: null, decided: 0, open: 0, overdue: 0, slaDays: 3 });

    const dashboard = await t.request("GET", "/api/dashboard", { as: admin });
    const onDashboard = dashboard.body.role.verifiers.find((v: { id: string }) => v.id === quick.id);
    expect(onDashboard.turnaround).toEqual(mine.turnaround);

    // Three processes' sweeps at once, then another: one notice each for the verifier and the admin, one audit event.
    const counts = await Promise.all([1, 2, 3].map(() => notifyOverdueVerifications(t.deps)));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await notifyOverdueVerifications(t.deps)).toBe(0);
    const notices = await t.deps.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.title, "Verification overdue"), inArray(notifications.userId, [quick.id, admin.id])));
    expect(notices.map((n) => n.userId).sort()).toEqual([quick.id, admin.id].sort());
    expect(notices.every((n) => n.link === `/milestones/${late.id}`)).toBe(true);
    expect(notices.some((n) => n.link === `/milestones/${fresh.id}`)).toBe(false);
    const audited = await t.deps.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "milestone.verification_overdue"), eq(auditEvents.entityId, late.id)));
    expect(audited).toHaveLength(1);

    // A verification started again (resumed after a delay) is a new start: overdue again, notified again.
    await t.deps.db
      .update(milestones)
      .set({ startedAt: new Date(Date.now() - 5 * 24 * HOUR) })
      .where(eq(milestones.id, late.id));
    expect(await notifyOverdueVerifications(t.deps)).toBe(1);
  });

  it("is taken over each verifier's latest decisions, so older history neither changes nor slows it", async () => {
    const busy = await t.user("verifier");
    const project = await makeProject(t, { owner, verifiers: [busy] });
    const decide = async (startedHoursAgo: number, decidedAfterHours: number) => {
      const m = await makeMilestone(t, project, { status: "verified", verifier: busy });
      const startedAt = new Date(Date.now() - startedHoursAgo * HOUR);
      await t.deps.db
        .update(milestones)
        .set({ startedAt, verificationDate: new Date(startedAt.getTime() + decidedAfterHours * HOUR) })
        .where(eq(milestones.id, m.id));
    };
    // Twenty slow decisions a year ago, then the window's worth of quick recent ones.
    for (let i = 0; i < 20; i++) await decide(24 * 365, 50);
    for (let i = 0; i < TURNAROUND_WINDOW; i++) await decide(48, 2);
    const directory = await t.request("GET", "/api/verifiers?limit=100", { as: admin });
    const row = directory.body.items.find((v: { id: string }) => v.id === busy.id);
    expect(row.turnaround).toMatchObject({ medianHours: 2, p90Hours: 2, decided: TURNAROUND_WINDOW });
  });

  it("shows the admin dashboard's first six verifiers and how many there are in all", async () => {
    for (let i = 0; i < 6; i++) await t.user("verifier");
    const dashboard = await t.request("GET", "/api/dashboard", { as: admin });
    expect(dashboard.body.role.totals.verifiers).toBeGreaterThan(6);
    expect(dashboard.body.role.verifiers).toHaveLength(6);
  });
});

describe("the overdue sweep", () => {
  it("finishes a run under way before stop() resolves, so a server stopping never sweeps on a closed database", async () => {
    const sweeper = createOverdueSweeper(t.deps);
    let finished = false;
    const run = sweeper.tick().then(() => {
      finished = true;
    });
    // One run at a time: a tick while one is under way does nothing.
    expect(await sweeper.tick()).toBe(0);
    await sweeper.stop();
    expect(finished).toBe(true);
    await run;
  });
});
