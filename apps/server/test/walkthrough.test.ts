// Issue 23 (third walkthrough): an invitation with no organization, partly released milestones counted by what is
// still open, one definition per figure read from every page that shows it, an unreachable release policy
// refused, and a voided decision labelled by what voided it.
import { sumMoney } from "@tranche/domain";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disbursements, milestones, verificationDecisions } from "../src/db/schema";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

let t: TestApp;
let admin: TestUser;
let owner: TestUser;
let investor: TestUser;
let v1: TestUser;
let v2: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  [admin, owner, investor, v1, v2] = await Promise.all([
    t.user("admin"),
    t.user("project_owner"),
    t.user("investor"),
    t.user("verifier"),
    t.user("verifier"),
  ]);
});
afterAll(() => t.close());

const get = async (path: string, as: TestUser) => {
  const res = await t.request("GET", path, { as });
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
};
const post = (path: string, as: TestUser, body?: unknown) => t.request("POST", path, { as, body });

describe("an invitation with the optional organization left empty", () => {
  it("is sent with none (null or empty), and an existing account still answers 409", async () => {
    for (const organization of [null, ""]) {
      const email = `empty.org.${organization === null ? "null" : "blank"}@example.test`;
      const res = await post("/api/invitations", admin, { email, role: "investor", organization, projectIds: [] });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body).toMatchObject({ email, organization: null });
    }
    const taken = await post("/api/invitations", admin, { email: v1.email, role: "investor", organization: null });
    expect(taken.status).toBe(409);
    expect(taken.body.error.details).toEqual({ email: "An account with this email already exists." });
  });
});

describe("one portfolio, every page's figures", () => {
  it("counts a partly released milestone by what is open, and every page agrees on each figure", async () => {
    const project = await makeProject(t, {
      owner,
      investors: [investor],
      verifiers: [v1, v2],
      currency: "EUR",
      totalCapital: 5_000_000,
    });
    // €2,000,000 of which 60 % is approved and released: €800,000 stays open.
    const partly = await makeMilestone(t, project, { title: "Turbines", capitalAmount: 2_000_000, dueInDays: 200 });
    expect((await post(`/api/milestones/${partly.id}/start`, v1)).status).toBe(200);
    const approved = await post(`/api/milestones/${partly.id}/approve`, v1, {
      share: 60,
      comments: "Two of the five turbines are not yet installed.",
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    await makeMilestone(t, project, { title: "Cabling", capitalAmount: 100_000, dueInDays: 20 });
    await makeMilestone(t, project, { title: "Access road", capitalAmount: 50_000, status: "delayed" });
    await makeMilestone(t, project, {
      title: "Fencing",
      capitalAmount: 30_000,
      status: "rejected",
      verifier: v1,
      dueInDays: -5,
    });
    await makeMilestone(t, project, { title: "Survey", capitalAmount: 10_000, status: "verified", verifier: v1 });
    const open = sumMoney([800_000, 100_000]);

    // Pending verification: open amounts of pending and in-verification milestones, on every dashboard.
    for (const who of [owner, investor, v1, admin]) {
      const dashboard = await get("/api/dashboard", who);
      expect(dashboard.overview.pendingVerification, who.role).toEqual({
        capital: [{ currency: "EUR", amount: open }],
        count: 2,
      });
    }
    const investorDashboard = await get("/api/dashboard", investor);
    expect(investorDashboard.role.pendingReviewCount).toBe(2);
    const upcoming = investorDashboard.role.upcomingMilestones.find((m: { id: string }) => m.id === partly.id);
    expect(upcoming).toMatchObject({ capitalAmount: 2_000_000, openAmount: 800_000 });

    // Reports: milestones now (the partly released one included, delayed apart) and upcoming releases.
    for (const who of [owner, investor]) {
      const analytics = await get("/api/analytics", who);
      const now = analytics.milestones.at(-1);
      const counts = await get("/api/milestones/counts", who);
      expect(now.pending + now.inVerification + now.verified + now.rejected + now.delayed).toBe(counts.total);
      expect(now).toMatchObject({
        pending: counts.byStatus.pending,
        inVerification: counts.byStatus.in_verification,
        verified: counts.byStatus.verified,
        rejected: counts.byStatus.rejected,
        delayed: counts.byStatus.delayed,
      });
      const dashboard = await get("/api/dashboard", who);
      expect(now.pending + now.inVerification).toBe(dashboard.overview.pendingVerification.count);
      // The rejected, overdue milestone is not an upcoming release; the partly released one counts what is open.
      const eur = analytics.upcoming.find((s: { currency: string }) => s.currency === "EUR");
      expect(sumMoney(eur.points.map((p: { amount: number }) => p.amount))).toBe(open);
    }

    // The verifier: Action Required, Pending Verifications and the cards are one list.
    for (const verifier of [v1, v2]) {
      const queue = await get("/api/verifications", verifier);
      const dashboard = await get("/api/dashboard", verifier);
      expect(dashboard.overview.actionRequired.count).toBe(queue.counts.pending);
      expect(queue.pending).toHaveLength(queue.counts.pending);
      const item = queue.pending.find((m: { milestoneId: string }) => m.milestoneId === partly.id);
      expect(item).toMatchObject({ capitalAmount: 2_000_000, openAmount: 800_000, status: "pending" });
    }

    // Completed: the partly released milestone counts for v1 on the queue, the Verifiers page and the dashboard.
    const queue = await get("/api/verifications", v1);
    const completed = await get("/api/verifications/completed", v1);
    const directory = await get("/api/verifiers?limit=100", admin);
    const adminDashboard = await get("/api/dashboard", admin);
    const listed = directory.items.find((v: { id: string }) => v.id === v1.id);
    const onDashboard = adminDashboard.role.verifiers.find((v: { id: string }) => v.id === v1.id);
    expect(queue.counts.completed).toBe(3);
    expect(completed.total).toBe(3);
    expect(completed.items.map((m: { milestoneId: string }) => m.milestoneId)).toContain(partly.id);
    expect(listed.completedVerifications).toBe(3);
    expect(onDashboard.completedVerifications).toBe(3);
  });

  it("credits every verifier of a quorum with the milestone, and their turnaround", async () => {
    const lead = await t.user("investor");
    const a = await t.user("verifier");
    const b = await t.user("verifier");
    const project = await makeProject(t, { owner, investors: [lead], verifiers: [a, b] });
    expect(
      (await t.request("PUT", `/api/projects/${project.id}/lead-investor`, { as: admin, body: { userId: lead.id } }))
        .status,
    ).toBe(200);
    const policy = { requiredApprovals: 2, thresholds: [], distinctOrganizations: false, cosignAbove: null };
    expect(
      (await t.request("PUT", `/api/projects/${project.id}/release-policy`, { as: lead, body: policy })).status,
    ).toBe(200);
    const milestone = await makeMilestone(t, project, { capitalAmount: 1_200_000 });
    expect((await post(`/api/milestones/${milestone.id}/start`, a)).status).toBe(200);
    expect((await post(`/api/milestones/${milestone.id}/approve`, a, { comments: "Works as built." })).status).toBe(
      200,
    );
    expect((await post(`/api/milestones/${milestone.id}/approve`, b, { comments: "Checked on site." })).status).toBe(
      200,
    );
    const directory = await get("/api/verifiers?limit=100", admin);
    for (const verifier of [a, b]) {
      const row = directory.items.find((v: { id: string }) => v.id === verifier.id);
      expect(row.completedVerifications, verifier.name).toBe(1);
      expect(row.turnaround.decided, verifier.name).toBe(1);
      expect(row.turnaround.medianHours, verifier.name).not.toBeNull();
      expect((await get("/api/verifications", verifier)).counts.completed).toBe(1);
    }
  });
});

describe("money with more than two decimals", () => {
  it("is refused with a clear message instead of being rounded", async () => {
    const project = await makeProject(t, { owner });
    const res = await post(`/api/projects/${project.id}/milestones`, owner, {
      title: "Cents",
      description: "A milestone with a third decimal.",
      dueDate: "2030-01-01",
      capitalAmount: 12.345,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual({ capitalAmount: "Capital amount may have at most two decimals." });
    const fine = await post(`/api/projects/${project.id}/milestones`, owner, {
      title: "Cents",
      description: "A milestone with cents.",
      dueDate: "2030-01-01",
      capitalAmount: 12.35,
    });
    expect(fine.status).toBe(201);
    expect(fine.body.capitalAmount).toBe(12.35);
  });
});

describe("a release policy the assigned verifiers cannot meet", () => {
  it("is refused with 422 naming both numbers, and nothing is saved", async () => {
    const lead = await t.user("investor");
    const project = await makeProject(t, { owner, investors: [lead], verifiers: [v1, v2] });
    const bare = await makeProject(t, { owner, investors: [lead] });
    for (const p of [project, bare]) {
      expect(
        (await t.request("PUT", `/api/projects/${p.id}/lead-investor`, { as: admin, body: { userId: lead.id } }))
          .status,
      ).toBe(200);
    }
    const put = (id: string, rule: Record<string, unknown>) =>
      t.request("PUT", `/api/projects/${id}/release-policy`, {
        as: lead,
        body: { requiredApprovals: 1, thresholds: [], distinctOrganizations: false, cosignAbove: null, ...rule },
      });
    const three = await put(project.id, { requiredApprovals: 3 });
    expect(three.status).toBe(422);
    expect(three.body.error.message).toBe(
      "The policy asks for 3 approvals but only 2 verifiers are assigned to this project. Assign more verifiers first, or ask for fewer approvals.",
    );
    expect(three.body.error.details).toEqual({ requiredApprovals: three.body.error.message });
    const threshold = await put(project.id, { thresholds: [{ minAmount: 500_000, approvals: 4 }] });
    expect(threshold.status).toBe(422);
    expect(threshold.body.error.details.thresholds).toMatch(/4 approvals but only 2 verifiers/);
    expect((await get(`/api/projects/${project.id}/release-policy`, lead)).current.version).toBe(0);
    expect((await put(project.id, { requiredApprovals: 2 })).status).toBe(200);

    // No verifier yet: said so in words, and any policy waits for one.
    const none = await get(`/api/projects/${bare.id}/release-policy`, owner);
    expect(none.current.statement).toBe("1 approval from assigned verifiers (none assigned yet)");
    const refused = await put(bare.id, {});
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toMatch(/^The policy asks for 1 approval but no verifier is assigned/);
  });
});

describe("a voided decision", () => {
  it("says what voided it: a resubmission, a delay, or a disputed rejection reassigned", async () => {
    const project = await makeProject(t, { owner, investors: [investor], verifiers: [v1, v2] });
    const reasons: Record<string, string | null> = {};
    for (const [verb, expected] of [
      ["resubmit", "resubmit"],
      ["delay", "delay"],
      ["dispute", "reassign"],
    ] as const) {
      const milestone = await makeMilestone(t, project, { title: `Voided by ${verb}` });
      expect((await post(`/api/milestones/${milestone.id}/start`, v1)).status).toBe(200);
      expect((await post(`/api/milestones/${milestone.id}/reject`, v1, { comments: "Not done." })).status).toBe(200);
      if (verb === "dispute") {
        const disputed = await post(`/api/milestones/${milestone.id}/dispute`, owner, {
          statement: "The works were finished; see the site photos.",
        });
        expect(disputed.status, JSON.stringify(disputed.body)).toBe(200);
        const assigned = await post(`/api/milestones/${milestone.id}/dispute/assign`, admin, { verifierId: v2.id });
        expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
      } else {
        expect((await post(`/api/milestones/${milestone.id}/${verb}`, owner)).status).toBe(200);
      }
      const verification = await get(`/api/milestones/${milestone.id}/verification`, owner);
      const [rejection] = verification.quorum.decisions;
      expect(rejection).toMatchObject({ kind: "reject" });
      expect(rejection.voidedAt).not.toBeNull();
      reasons[verb] = rejection.voidReason;
      expect(rejection.voidReason).toBe(expected);
    }
    const stored = await t.deps.db
      .select({ reason: verificationDecisions.voidReason })
      .from(verificationDecisions)
      .innerJoin(milestones, eq(milestones.id, verificationDecisions.milestoneId))
      .where(eq(milestones.projectId, project.id));
    expect(stored.map((r) => r.reason).sort()).toEqual(["delay", "reassign", "resubmit"]);
  });
});

describe("a partial release's certificate", () => {
  it("states the agreed share, of what was open, and the verifier's reason", async () => {
    const project = await makeProject(t, { owner, investors: [investor], verifiers: [v1], currency: "EUR" });
    const milestone = await makeMilestone(t, project, { capitalAmount: 2_000_000 });
    expect((await post(`/api/milestones/${milestone.id}/start`, v1)).status).toBe(200);
    const reason = "Two of the five turbines are not yet installed.";
    expect((await post(`/api/milestones/${milestone.id}/approve`, v1, { share: 60, comments: reason })).status).toBe(
      200,
    );
    const [release] = await t.deps.db.select().from(disbursements).where(eq(disbursements.milestoneId, milestone.id));
    const pdf = await t.request("GET", `/api/releases/${release.id}/certificate`, { as: investor });
    expect(pdf.status).toBe(200);
    const fingerprint = pdf.headers.get("x-certificate-fingerprint");
    const check = await t.request("GET", `/api/certificates/verify?release=${release.id}&hash=${fingerprint}`);
    expect(check.body).toMatchObject({
      valid: true,
      facts: { release: { amount: "1200000.00" }, partial: { share: 60, of: "2000000.00", reason } },
    });
  });
});
