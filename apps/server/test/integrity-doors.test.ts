// The doors an ordinary account walked through to move money outside the rules, each shut: an edit that reopened
// a rejected round, a milestone shrunk below its release, a self-declared organization, and float cents; then a
// release of nothing, a policy changed under an open round, rights kept after a role change, a partly released
// milestone deleted, a new round opened on the last one's comment, and disputes meeting a policy change. Where the database holds the rule too, a test shows it refusing when the application is bypassed.
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditEvents,
  disbursements,
  milestones,
  projectMembers,
  projects,
  users,
  verificationDecisions,
} from "../src/db/schema";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

let t: TestApp;
let owner: TestUser;
let lead: TestUser;
let admin: TestUser;
let a: TestUser;
let b: TestUser;
let c: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  [owner, lead, admin] = await Promise.all([t.user("project_owner"), t.user("investor"), t.user("admin")]);
  [a, b, c] = await Promise.all([
    t.user("verifier", { organization: "Northwind Audit", verifiedOrganization: "Northwind Audit" }),
    t.user("verifier", { organization: "Northwind Audit", verifiedOrganization: "Northwind Audit" }),
    t.user("verifier", { organization: "Kestrel Engineering", verifiedOrganization: "Kestrel Engineering" }),
  ]);
});
afterAll(() => t.close());

const post = (path: string, as: TestUser, body?: unknown) => t.request("POST", path, { as, body });

async function underPolicy(rule: Record<string, unknown>, amount = 1_000_000, verifiers = [a, b, c]) {
  const project = await makeProject(t, { owner, investors: [lead], verifiers, totalCapital: 5_000_000 });
  expect(
    (await t.request("PUT", `/api/projects/${project.id}/lead-investor`, { as: admin, body: { userId: lead.id } }))
      .status,
  ).toBe(200);
  const policy = { requiredApprovals: 2, thresholds: [], distinctOrganizations: false, cosignAbove: null, ...rule };
  expect(
    (await t.request("PUT", `/api/projects/${project.id}/release-policy`, { as: lead, body: policy })).status,
  ).toBe(200);
  const milestone = await makeMilestone(t, project, { status: "in_verification", verifier: a, capitalAmount: amount });
  return { project, milestone };
}

const releasesOf = (milestoneId: string) =>
  t.deps.db
    .select()
    .from(disbursements)
    .where(eq(disbursements.milestoneId, milestoneId))
    .orderBy(asc(disbursements.round));
const milestoneRow = async (id: string) => (await t.deps.db.select().from(milestones).where(eq(milestones.id, id)))[0];

/**
 * An approval by `a` and a release naming it, written straight to the database past the application: what the
 * database alone refuses. The release is of 1.00 USD in round 1 under policy version 1 unless told otherwise.
 */
async function directApproval(
  milestone: { id: string; projectId: string },
  decision: { share?: string; amount?: string; policyVersion?: number } = {},
) {
  const [approval] = await t.deps.db
    .insert(verificationDecisions)
    .values({
      milestoneId: milestone.id,
      round: 1,
      userId: a.id,
      kind: "approve",
      share: "100.00",
      policyVersion: 1,
      ...decision,
    })
    .returning();
  const release = {
    milestoneId: milestone.id,
    projectId: milestone.projectId,
    amount: "1.00",
    currency: "USD",
    releasedBy: a.id,
    round: 1,
    policyVersion: decision.policyVersion ?? 1,
    decisionIds: [approval.id],
  };
  return {
    release,
    write: (overrides: Partial<typeof release>) => t.deps.db.insert(disbursements).values({ ...release, ...overrides }),
  };
}

describe("door 1: a rejected round reopened by an edit", () => {
  it("carries out PATCH {status: pending} as a resubmission: the earlier approval stops counting", async () => {
    const { milestone } = await underPolicy({});
    expect((await post(`/api/milestones/${milestone.id}/approve`, a)).status).toBe(200);
    expect(
      (await post(`/api/milestones/${milestone.id}/reject`, c, { comments: "The invoices do not match." })).status,
    ).toBe(200);
    const edited = await t.request("PATCH", `/api/milestones/${milestone.id}`, {
      as: owner,
      body: { status: "pending" },
    });
    expect(edited.status).toBe(200);
    const row = await milestoneRow(milestone.id);
    expect(row).toMatchObject({ status: "pending", verificationRound: 2 });
    const decisions = await t.deps.db
      .select()
      .from(verificationDecisions)
      .where(eq(verificationDecisions.milestoneId, milestone.id));
    expect(decisions.every((d) => d.voidedAt !== null)).toBe(true);
    const [event] = await t.deps.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, milestone.id), eq(auditEvents.action, "milestone.resubmitted")));
    expect(event).toBeDefined();

    // One approval in the new round is one of two: nothing is released.
    expect((await post(`/api/milestones/${milestone.id}/start`, b)).status).toBe(200);
    const once = await post(`/api/milestones/${milestone.id}/approve`, b);
    expect(once.body).toMatchObject({ status: "in_verification", quorum: { approvals: 1, required: 2 } });
    expect(await releasesOf(milestone.id)).toHaveLength(0);
  });

  it("refuses the edit while the rejection is under dispute, exactly as the endpoint does", async () => {
    const { milestone } = await underPolicy({});
    await post(`/api/milestones/${milestone.id}/reject`, c, { comments: "The invoices do not match." });
    expect(
      (await post(`/api/milestones/${milestone.id}/dispute`, owner, { statement: "The invoices were re-issued." }))
        .status,
    ).toBe(200);
    for (const status of ["pending", "delayed"]) {
      const edited = await t.request("PATCH", `/api/milestones/${milestone.id}`, {
        as: owner,
        body: { status, title: "Changed title" },
      });
      expect(edited.status).toBe(409);
      expect(edited.body.error.message).toContain("under dispute");
    }
    expect(await milestoneRow(milestone.id)).toMatchObject({
      status: "rejected",
      verificationRound: 1,
      title: milestone.title,
    });
  });

  it("is refused by the database when a status is written outside the transition table", async () => {
    const { milestone } = await underPolicy({});
    await post(`/api/milestones/${milestone.id}/reject`, c, { comments: "The invoices do not match." });
    // Reopening the rejected round in place, or jumping to verified, is not a transition.
    await expect(
      t.deps.db.update(milestones).set({ status: "pending" }).where(eq(milestones.id, milestone.id)),
    ).rejects.toThrow();
    await expect(
      t.deps.db.update(milestones).set({ status: "verified" }).where(eq(milestones.id, milestone.id)),
    ).rejects.toThrow();
    expect(await milestoneRow(milestone.id)).toMatchObject({ status: "rejected", verificationRound: 1 });
  });
});

describe("door 2: a milestone shrunk below its release", () => {
  it("answers 422 with both figures, changes nothing, and the next approval still works", async () => {
    const { project, milestone } = await underPolicy({ requiredApprovals: 1 });
    const part = await post(`/api/milestones/${milestone.id}/approve`, a, {
      share: 50,
      comments: "Half of the works are done.",
    });
    expect(part.body.status).toBe("pending");
    const shrunk = await t.request("PATCH", `/api/milestones/${milestone.id}`, {
      as: owner,
      body: { capitalAmount: 100_000 },
    });
    expect(shrunk.status).toBe(422);
    expect(shrunk.body.error.details).toEqual({ capitalAmount: 100_000, released: 500_000 });
    expect(shrunk.body.error.message).toBe(
      "The milestone's amount of $100,000 would be below the $500,000 already released on it.",
    );
    expect((await milestoneRow(milestone.id)).capitalAmount).toBe("1000000.00");
    expect((await post(`/api/milestones/${milestone.id}/start`, a)).status).toBe(200);
    const rest = await post(`/api/milestones/${milestone.id}/approve`, a);
    expect(rest.body.status).toBe("verified");
    expect((await releasesOf(milestone.id)).map((r) => r.amount)).toEqual(["500000.00", "500000.00"]);
    expect(project.id).toBeTruthy();
  });

  it("is refused by the database: releases above the amount, or an amount below the releases", async () => {
    const { milestone } = await underPolicy({ requiredApprovals: 1 });
    await post(`/api/milestones/${milestone.id}/approve`, a, { share: 50, comments: "Half of the works are done." });
    await expect(
      t.deps.db.update(milestones).set({ capitalAmount: "100000.00" }).where(eq(milestones.id, milestone.id)),
    ).rejects.toThrow();
    const [release] = await releasesOf(milestone.id);
    await expect(
      t.deps.db.update(disbursements).set({ amount: "1000000.01" }).where(eq(disbursements.id, release.id)),
    ).rejects.toThrow();
    // A release that names no decision of its round is refused too.
    await expect(
      t.deps.db.insert(disbursements).values({
        milestoneId: milestone.id,
        projectId: milestone.projectId,
        amount: "1.00",
        currency: "USD",
        releasedBy: a.id,
        round: 2,
      }),
    ).rejects.toThrow();
    expect(await releasesOf(milestone.id)).toHaveLength(1);
  });

  it("records the round and the decisions that made each release", async () => {
    const { milestone } = await underPolicy({});
    await post(`/api/milestones/${milestone.id}/approve`, a);
    await post(`/api/milestones/${milestone.id}/approve`, c);
    const [release] = await releasesOf(milestone.id);
    const approvals = await t.deps.db
      .select()
      .from(verificationDecisions)
      .where(eq(verificationDecisions.milestoneId, milestone.id))
      .orderBy(asc(verificationDecisions.decidedAt));
    expect(release.round).toBe(1);
    expect([...release.decisionIds].sort()).toEqual(approvals.map((d) => d.id).sort());
  });
});

describe("door 3: distinct organizations defeated by a profile edit", () => {
  it("compares the organization an admin verified, not the profile's", async () => {
    const { milestone } = await underPolicy({ distinctOrganizations: true });
    expect((await post(`/api/milestones/${milestone.id}/approve`, a)).status).toBe(200);
    const renamed = await t.request("PATCH", "/api/me/profile", {
      as: b,
      body: { name: "Bea Lindqvist", organization: "Totally Independent Ltd", expertise: [] },
    });
    expect(renamed.body).toMatchObject({ organization: "Totally Independent Ltd" });
    const refused = await post(`/api/milestones/${milestone.id}/approve`, b);
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toContain("Northwind Audit has already approved");
    expect(await releasesOf(milestone.id)).toHaveLength(0);
  });

  it("lets only an admin who passed the second factor set it, audited, and records it with each decision", async () => {
    const { milestone } = await underPolicy({ distinctOrganizations: true });
    const unverified = await t.user("verifier", { organization: "Self Declared Co" });
    const byVerifier = await t.request("PATCH", `/api/users/${b.id}`, {
      as: b,
      body: { verifiedOrganization: "X Corp" },
    });
    expect(byVerifier.status).toBe(403);
    const noSecondFactor = await t.user("admin", { secondFactor: false });
    const early = await t.request("PATCH", `/api/users/${b.id}`, {
      as: noSecondFactor,
      body: { verifiedOrganization: "X Corp" },
    });
    expect([401, 403]).toContain(early.status);

    const set = await t.request("PATCH", `/api/users/${b.id}`, {
      as: admin,
      body: { verifiedOrganization: "Harbor Review LLP" },
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ verifiedOrganization: "Harbor Review LLP" });
    const [audit] = await t.deps.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, b.id), eq(auditEvents.action, "user.organization_verified")));
    expect(audit.after).toEqual({ verifiedOrganization: "Harbor Review LLP" });

    expect((await post(`/api/milestones/${milestone.id}/approve`, a)).status).toBe(200);
    const approved = await post(`/api/milestones/${milestone.id}/approve`, b);
    expect(approved.body.status).toBe("verified");
    const decisions = approved.body.quorum.decisions.map((d: { organization: string }) => d.organization);
    expect(decisions).toEqual(["Northwind Audit", "Harbor Review LLP"]);

    // A verifier nobody verified cannot count under the rule at all.
    const other = await underPolicy({ distinctOrganizations: true });
    await t.request("POST", `/api/projects/${other.project.id}/members`, {
      as: admin,
      body: { userId: unverified.id, role: "verifier" },
    });
    const refused = await post(`/api/milestones/${other.milestone.id}/approve`, unverified);
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toContain("an admin has not verified your organization");
    await t.request("PATCH", `/api/users/${b.id}`, { as: admin, body: { verifiedOrganization: "Northwind Audit" } });
  });
});

describe("door 4: partial releases exact to the cent", () => {
  it("releases 25 % of 2.32 as 0.58, and the decision keeps what it agreed to", async () => {
    const { milestone } = await underPolicy({ requiredApprovals: 1 }, 2.32);
    const res = await post(`/api/milestones/${milestone.id}/approve`, a, { share: 25, comments: "A quarter is done." });
    expect(res.status).toBe(200);
    const [release] = await releasesOf(milestone.id);
    expect(release.amount).toBe("0.58");
    expect(res.body.quorum.openAmount).toBe(1.74);
    expect(res.body.quorum.decisions[0]).toMatchObject({ share: 25, amount: 0.58 });
  });

  it("keeps a decision's amount when the rest is released later", async () => {
    const { milestone } = await underPolicy({ requiredApprovals: 1 }, 2_000_000);
    await post(`/api/milestones/${milestone.id}/approve`, a, { share: 60, comments: "Structure done, roof open." });
    await post(`/api/milestones/${milestone.id}/start`, a);
    const done = await post(`/api/milestones/${milestone.id}/approve`, a);
    expect(done.body.status).toBe("verified");
    expect(done.body.quorum.decisions.map((d: { share: number; amount: number }) => [d.share, d.amount])).toEqual([
      [60, 1_200_000],
      [100, 800_000],
    ]);
  });
});

describe("door 5: a release of nothing", () => {
  it("keeps something open on a partly released milestone: its amount may not come down to what was released", async () => {
    const { milestone } = await underPolicy({ requiredApprovals: 1 }, 300);
    await post(`/api/milestones/${milestone.id}/approve`, a, { share: 33.33, comments: "A third of the works." });
    const equal = await t.request("PATCH", `/api/milestones/${milestone.id}`, {
      as: owner,
      body: { capitalAmount: 99.99 },
    });
    expect(equal.status).toBe(422);
    expect(equal.body.error.message).toBe(
      "The milestone's amount of $99.99 is what was already released on it; it must stay above that, so something is left to verify.",
    );
    expect((await milestoneRow(milestone.id)).capitalAmount).toBe("300.00");
    // A cent above it is fine, and that cent is then verified and released.
    const above = await t.request("PATCH", `/api/milestones/${milestone.id}`, {
      as: owner,
      body: { capitalAmount: 100 },
    });
    expect(above.status).toBe(200);
    expect((await post(`/api/milestones/${milestone.id}/start`, a)).status).toBe(200);
    const rest = await post(`/api/milestones/${milestone.id}/approve`, a);
    expect(rest.body.status).toBe("verified");
    expect((await releasesOf(milestone.id)).map((r) => r.amount)).toEqual(["99.99", "0.01"]);
  });

  it("refuses a share that comes to less than a cent, naming the share, and records nothing", async () => {
    const { milestone } = await underPolicy({ requiredApprovals: 1 }, 1);
    await post(`/api/milestones/${milestone.id}/approve`, a, { share: 99, comments: "Nearly all of it." });
    await post(`/api/milestones/${milestone.id}/start`, a);
    const half = await post(`/api/milestones/${milestone.id}/approve`, a, {
      share: 50,
      comments: "Half of the last cent.",
    });
    expect(half.status).toBe(422);
    expect(half.body.error.details.share).toBe(
      "A 50% share of the $0.01 still open is less than a cent; approve a larger share.",
    );
    const decisions = await t.deps.db
      .select()
      .from(verificationDecisions)
      .where(eq(verificationDecisions.milestoneId, milestone.id));
    expect(decisions).toHaveLength(1);
    expect((await milestoneRow(milestone.id)).status).toBe("in_verification");
    // The whole of what is open still releases.
    const all = await post(`/api/milestones/${milestone.id}/approve`, a);
    expect(all.body.status).toBe("verified");
    expect((await releasesOf(milestone.id)).map((r) => r.amount)).toEqual(["0.99", "0.01"]);
  });
});

describe("door 6: a release policy changed under an open round", () => {
  const setPolicy = (projectId: string, rule: Record<string, unknown>) =>
    t.request("PUT", `/api/projects/${projectId}/release-policy`, {
      as: lead,
      body: { requiredApprovals: 2, thresholds: [], distinctOrganizations: false, cosignAbove: null, ...rule },
    });
  const verification = (milestoneId: string, as: TestUser) =>
    t.request("GET", `/api/milestones/${milestoneId}/verification`, { as });

  it("voids the round's decisions when the countersignature it awaited is dropped; the verifiers decide again", async () => {
    const { project, milestone } = await underPolicy({ cosignAbove: 1 });
    await post(`/api/milestones/${milestone.id}/approve`, a);
    await post(`/api/milestones/${milestone.id}/approve`, c);
    expect((await verification(milestone.id, lead)).body.permissions.canCountersign).toBe(true);

    expect((await setPolicy(project.id, {})).status).toBe(200);
    const after = await verification(milestone.id, a);
    expect(after.body.quorum.decisions.map((d: { voidReason: string }) => d.voidReason)).toEqual(["policy", "policy"]);
    expect(after.body.permissions.canDecide).toBe(true);
    expect((await post(`/api/milestones/${milestone.id}/countersign`, lead)).status).toBe(409);
    expect(await releasesOf(milestone.id)).toHaveLength(0);

    await post(`/api/milestones/${milestone.id}/approve`, a);
    const done = await post(`/api/milestones/${milestone.id}/approve`, c);
    expect(done.body.status).toBe("verified");
    const [release] = await releasesOf(milestone.id);
    expect(release.policyVersion).toBe(2);
    const changed = await t.deps.db
      .select({ after: auditEvents.after })
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, project.id), eq(auditEvents.action, "project.release_policy_changed")))
      .orderBy(asc(auditEvents.id));
    expect(changed.at(-1)?.after).toMatchObject({ version: 2, decisionsVoided: [milestone.id] });
  });

  it("voids an approval when fewer are needed: nothing is released until a verifier approves under the new rule", async () => {
    const { project, milestone } = await underPolicy({});
    await post(`/api/milestones/${milestone.id}/approve`, a);
    expect((await setPolicy(project.id, { requiredApprovals: 1 })).status).toBe(200);
    expect(await releasesOf(milestone.id)).toHaveLength(0);
    const state = await verification(milestone.id, a);
    expect(state.body.quorum).toMatchObject({ required: 1, approvals: 0 });
    const done = await post(`/api/milestones/${milestone.id}/approve`, a);
    expect(done.body.status).toBe("verified");
    expect((await releasesOf(milestone.id)).map((r) => r.policyVersion)).toEqual([2]);
  });

  it("is refused by the database: a release naming a decision made under another policy version", async () => {
    const { milestone } = await underPolicy({ requiredApprovals: 1 });
    const { write } = await directApproval(milestone);
    await expect(write({ policyVersion: 0 })).rejects.toThrow();
    await expect(write({ policyVersion: 1 })).resolves.toBeDefined();
  });
});

describe("door 7: rights kept after a role change", () => {
  it("a lead investor made a verifier no longer sets the release policy", async () => {
    const former = await t.user("investor");
    const project = await makeProject(t, { owner, investors: [former], verifiers: [a, c] });
    await t.request("PUT", `/api/projects/${project.id}/lead-investor`, { as: admin, body: { userId: former.id } });
    const changed = await t.request("PATCH", `/api/users/${former.id}`, { as: admin, body: { role: "verifier" } });
    expect(changed.status).toBe(200);
    const policy = { requiredApprovals: 1, thresholds: [], distinctOrganizations: false, cosignAbove: null };
    const refused = await t.request("PUT", `/api/projects/${project.id}/release-policy`, { as: former, body: policy });
    expect(refused.status).toBe(403);
    const shown = await t.request("GET", `/api/projects/${project.id}/release-policy`, { as: former });
    expect(shown.body.canEdit).toBe(false);
  });

  it("a verifier keeps their role while a milestone they are verifying waits on them", async () => {
    const busy = await t.user("verifier");
    const project = await makeProject(t, { owner, investors: [lead], verifiers: [busy] });
    const milestone = await makeMilestone(t, project, { status: "in_verification", verifier: busy });
    const refused = await t.request("PATCH", `/api/users/${busy.id}`, { as: admin, body: { role: "investor" } });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(
      `${busy.name} is verifying "${milestone.title}" (${project.name}). It must be decided first.`,
    );
    const [row] = await t.deps.db.select({ role: users.role }).from(users).where(eq(users.id, busy.id));
    expect(row.role).toBe("verifier");
    expect((await post(`/api/milestones/${milestone.id}/approve`, busy)).body.status).toBe("verified");
    const changed = await t.request("PATCH", `/api/users/${busy.id}`, { as: admin, body: { role: "investor" } });
    expect(changed.status).toBe(200);
  });
});

describe("door 8: a partly released milestone deleted", () => {
  it("answers 409 and keeps the milestone with its release; the page says why Delete is unavailable", async () => {
    const { milestone } = await underPolicy({ requiredApprovals: 1 });
    await post(`/api/milestones/${milestone.id}/approve`, a, { share: 50, comments: "Half of the works are done." });
    for (const as of [owner, admin]) {
      const res = await t.request("DELETE", `/api/milestones/${milestone.id}`, { as });
      expect(res.status).toBe(409);
      expect(res.body.error.message).toBe("Capital was released on this milestone; it is kept with its releases.");
    }
    expect(await milestoneRow(milestone.id)).toBeDefined();
    expect(await releasesOf(milestone.id)).toHaveLength(1);
    const page = await t.request("GET", `/api/milestones/${milestone.id}`, { as: owner });
    expect(page.body.permissions).toMatchObject({
      canDelete: false,
      reasons: { delete: "Capital was released on this milestone; it is kept with its releases." },
    });
  });
});

describe("door 9: what the owner is offered during a dispute", () => {
  it("does not offer Delay while a dispute of the rejection is open (the server refuses it)", async () => {
    const { milestone } = await underPolicy({ requiredApprovals: 1 });
    await post(`/api/milestones/${milestone.id}/reject`, a, { comments: "The roof is not finished." });
    const before = await t.request("GET", `/api/milestones/${milestone.id}/verification`, { as: owner });
    expect(before.body.permissions.canDelay).toBe(true);
    const disputed = await post(`/api/milestones/${milestone.id}/dispute`, owner, {
      statement: "The roof was finished on Monday; photos attached.",
    });
    expect(disputed.status).toBe(200);
    const after = await t.request("GET", `/api/milestones/${milestone.id}/verification`, { as: owner });
    expect(after.body.permissions.canDelay).toBe(false);
    expect((await post(`/api/milestones/${milestone.id}/delay`, owner)).status).toBe(409);
  });

  it("keeps the disputed milestone as it was: no edit, no delete, and the page says why", async () => {
    const { milestone } = await underPolicy({ requiredApprovals: 1 }, 500);
    await post(`/api/milestones/${milestone.id}/reject`, a, { comments: "The roof is not finished." });
    await post(`/api/milestones/${milestone.id}/dispute`, owner, { statement: "The roof was finished on Monday." });
    const edit = await t.request("PATCH", `/api/milestones/${milestone.id}`, {
      as: owner,
      body: { capitalAmount: 4000 },
    });
    expect(edit.status).toBe(409);
    expect((await t.request("DELETE", `/api/milestones/${milestone.id}`, { as: owner })).status).toBe(409);
    expect(await milestoneRow(milestone.id)).toMatchObject({ capitalAmount: "500.00", status: "rejected" });
    const page = await t.request("GET", `/api/milestones/${milestone.id}`, { as: owner });
    expect(page.body.permissions).toMatchObject({ canEdit: false, canDelete: false });
    expect(page.body.permissions.reasons.edit).toBe(
      "This rejection is under dispute; the milestone stays as it is until the dispute is decided.",
    );
  });
});

describe("door 12: a milestone paid in parts to pass under the countersignature", () => {
  it("asks the investor to countersign each part of a milestone above the line, however small the part", async () => {
    const { milestone } = await underPolicy({ requiredApprovals: 1, cosignAbove: 500 }, 1000);
    const half = await post(`/api/milestones/${milestone.id}/approve`, a, {
      share: 50,
      comments: "Half of the works are done.",
    });
    expect(half.body).toMatchObject({ status: "in_verification", quorum: { awaitingCountersign: true } });
    expect(await releasesOf(milestone.id)).toHaveLength(0);
    const signed = await post(`/api/milestones/${milestone.id}/countersign`, lead);
    expect(signed.body.status).toBe("pending");
    expect((await releasesOf(milestone.id)).map((r) => r.amount)).toEqual(["500.00"]);
  });
});

describe("door 11: a dispute and a policy change", () => {
  const setPolicy = (projectId: string, rule: Record<string, unknown>) =>
    t.request("PUT", `/api/projects/${projectId}/release-policy`, {
      as: lead,
      body: { requiredApprovals: 2, thresholds: [], distinctOrganizations: false, cosignAbove: null, ...rule },
    });

  it("does not let a verifier whose approval in the disputed round was voided decide the dispute alone", async () => {
    const { project, milestone } = await underPolicy({});
    await post(`/api/milestones/${milestone.id}/approve`, c);
    expect((await setPolicy(project.id, { cosignAbove: 100 })).status).toBe(200);
    await post(`/api/milestones/${milestone.id}/reject`, a, { comments: "The slab has cracks." });
    await post(`/api/milestones/${milestone.id}/dispute`, owner, { statement: "The cracks are cosmetic; see report." });
    const assigned = await t.request("POST", `/api/milestones/${milestone.id}/dispute/assign`, {
      as: admin,
      body: { verifierId: c.id },
    });
    expect(assigned.status).toBe(422);
    expect((await milestoneRow(milestone.id)).status).toBe("rejected");
  });

  it("opens the dispute again when the decision that closed it is voided", async () => {
    const { project, milestone } = await underPolicy({ requiredApprovals: 1, cosignAbove: 100 });
    await post(`/api/milestones/${milestone.id}/reject`, a, { comments: "The slab has cracks." });
    await post(`/api/milestones/${milestone.id}/dispute`, owner, { statement: "The cracks are cosmetic; see report." });
    await t.request("POST", `/api/milestones/${milestone.id}/dispute/assign`, {
      as: admin,
      body: { verifierId: c.id },
    });
    const approved = await post(`/api/milestones/${milestone.id}/approve`, c);
    expect(approved.body).toMatchObject({ status: "in_verification", quorum: { awaitingCountersign: true } });
    expect(approved.body.dispute).toMatchObject({ outcome: "approved" });
    expect((await setPolicy(project.id, { requiredApprovals: 1, cosignAbove: 50 })).status).toBe(200);
    const reopened = await t.request("GET", `/api/milestones/${milestone.id}/verification`, { as: c });
    expect(reopened.body.dispute).toMatchObject({ outcome: null, closedAt: null, verifierId: c.id });
    expect(reopened.body.permissions.canDecide).toBe(true);
    // Its verifier decides again, alone, and that decision closes it.
    const rejected = await post(`/api/milestones/${milestone.id}/reject`, c, { comments: "On a second look, no." });
    expect(rejected.body.status).toBe("rejected");
    expect(rejected.body.dispute).toMatchObject({ outcome: "rejected" });
  });
});

describe("door 10: a new round opened on the last round's checklist and comment", () => {
  it("starts the round after a partial release with an empty checklist and no comment to reject with", async () => {
    const { milestone } = await underPolicy({ requiredApprovals: 1 });
    const ticked = { documentation: true, compliance: true, quality: true, timeline: true, budget: true, risk: true };
    expect((await t.request("PUT", `/api/milestones/${milestone.id}/checklist`, { as: a, body: ticked })).status).toBe(
      200,
    );
    await post(`/api/milestones/${milestone.id}/approve`, a, { share: 50, comments: "Half the fit-out is complete." });
    expect((await post(`/api/milestones/${milestone.id}/start`, a)).status).toBe(200);
    const next = await t.request("GET", `/api/milestones/${milestone.id}/verification`, { as: a });
    expect(next.body).toMatchObject({ status: "in_verification", round: 2, comments: null });
    expect(Object.values(next.body.checklist).some(Boolean)).toBe(false);
    // The rejection needs a reason of its own.
    expect((await post(`/api/milestones/${milestone.id}/reject`, a, {})).status).toBe(400);
    expect((await milestoneRow(milestone.id)).status).toBe("in_verification");
  });

  it("opens every other way without the last decision's comment: resumed after a delay, or reassigned to a dispute", async () => {
    const delayed = await underPolicy({ requiredApprovals: 1 });
    await post(`/api/milestones/${delayed.milestone.id}/reject`, a, { comments: "Cracks in the slab." });
    await post(`/api/milestones/${delayed.milestone.id}/delay`, owner);
    await post(`/api/milestones/${delayed.milestone.id}/start`, a);
    expect(await milestoneRow(delayed.milestone.id)).toMatchObject({ status: "in_verification", comments: null });

    const disputed = await underPolicy({ requiredApprovals: 1 });
    await post(`/api/milestones/${disputed.milestone.id}/reject`, a, { comments: "Cracks in the slab." });
    await post(`/api/milestones/${disputed.milestone.id}/dispute`, owner, { statement: "The cracks are cosmetic." });
    await t.request("POST", `/api/milestones/${disputed.milestone.id}/dispute/assign`, {
      as: admin,
      body: { verifierId: c.id },
    });
    expect(await milestoneRow(disputed.milestone.id)).toMatchObject({ status: "in_verification", comments: null });
  });
});

describe("door 13: an earlier part cancelled while a round waits", () => {
  async function cancelled(releaseId: string) {
    const custodian = await t.request("POST", "/api/api-tokens", {
      as: admin,
      body: { name: "Custodian", scopes: ["releases:read", "releases:write"] },
    });
    const failed = await t.request("POST", `/api/releases/${releaseId}/fail`, {
      headers: { authorization: `Bearer ${custodian.body.token}` },
      body: { reason: "The account was closed." },
    });
    expect(failed.status).toBe(200);
    const res = await post(`/api/releases/${releaseId}/cancel`, admin, { reason: "Paid outside the platform." });
    expect(res.status).toBe(200);
  }

  it("releases no more than the approvals agreed to; the cancelled amount stays open for another round", async () => {
    const { milestone } = await underPolicy({ requiredApprovals: 2 }, 1_000);
    await post(`/api/milestones/${milestone.id}/approve`, a, { share: 50, comments: "Half of the works." });
    await post(`/api/milestones/${milestone.id}/approve`, b, { share: 50, comments: "Half of the works." });
    const [first] = await releasesOf(milestone.id);
    expect(first.amount).toBe("500.00");
    expect((await post(`/api/milestones/${milestone.id}/start`, a)).status).toBe(200);
    const agreed = await post(`/api/milestones/${milestone.id}/approve`, a, { comments: "The rest is done." });
    expect(agreed.body.quorum.decisions.at(-1)).toMatchObject({ share: 100, amount: 500 });
    await cancelled(first.id);

    // The second approval sees 1,000 open; the first agreed to 500, so 500 is released and 500 stays open.
    const done = await post(`/api/milestones/${milestone.id}/approve`, b, { comments: "The rest is done." });
    expect(done.status).toBe(200);
    expect((await releasesOf(milestone.id)).map((r) => [r.amount, r.status])).toEqual([
      ["500.00", "cancelled"],
      ["500.00", "instructed"],
    ]);
    expect(done.body.status).toBe("pending");
    expect(done.body.quorum.openAmount).toBe(500);
  });

  it("holds under a countersignature too: the investor countersigns what the verifier agreed to", async () => {
    const { milestone } = await underPolicy({ requiredApprovals: 1, cosignAbove: 100 }, 1_000);
    await post(`/api/milestones/${milestone.id}/approve`, a, { share: 50, comments: "Half of the works." });
    expect((await post(`/api/milestones/${milestone.id}/countersign`, lead)).status).toBe(200);
    const [first] = await releasesOf(milestone.id);
    await post(`/api/milestones/${milestone.id}/start`, a);
    await post(`/api/milestones/${milestone.id}/approve`, a, { comments: "The rest is done." });
    await cancelled(first.id);
    // What the investor is asked to countersign says so before they do.
    const waiting = await t.request("GET", `/api/milestones/${milestone.id}/verification`, { as: lead });
    expect(waiting.body.quorum).toMatchObject({ openAmount: 1_000, releaseAmount: 500, awaitingCountersign: true });
    expect((await post(`/api/milestones/${milestone.id}/countersign`, lead)).status).toBe(200);
    expect((await releasesOf(milestone.id)).map((r) => r.amount)).toEqual(["500.00", "500.00"]);
  });

  it("refuses an approval sent on the amount open before the cancel: the page said 500, the release would be 1,000", async () => {
    const { milestone } = await underPolicy({ requiredApprovals: 1 }, 1_000);
    await post(`/api/milestones/${milestone.id}/approve`, a, { share: 50, comments: "Half of the works." });
    const [first] = await releasesOf(milestone.id);
    expect((await post(`/api/milestones/${milestone.id}/start`, a)).status).toBe(200);
    const seen = (await t.request("GET", `/api/milestones/${milestone.id}/verification`, { as: a })).body;
    expect(seen.quorum).toMatchObject({ openAmount: 500, releaseAmount: 500 });
    await cancelled(first.id);

    const views = {
      round: seen.round,
      policyVersion: seen.quorum.policyVersion,
      evidenceVersion: seen.evidenceVersion,
      openAmount: seen.quorum.openAmount,
    };
    const refused = await post(`/api/milestones/${milestone.id}/approve`, a, views);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: "stale_round",
      message: `The amount open on "${milestone.title}" changed since you saw it ($500, now $1,000). Look at it again before you decide.`,
      details: { openAmount: { seen: 500, current: 1_000 } },
    });
    expect((await releasesOf(milestone.id)).map((r) => [r.amount, r.status])).toEqual([["500.00", "cancelled"]]);
    // Seen again, the approval releases what is open now.
    expect((await post(`/api/milestones/${milestone.id}/approve`, a, { ...views, openAmount: 1_000 })).status).toBe(
      200,
    );
    expect((await releasesOf(milestone.id)).map((r) => [r.amount, r.status])).toEqual([
      ["500.00", "cancelled"],
      ["1000.00", "instructed"],
    ]);
  });

  it("is refused by the database: a release above an approval it names", async () => {
    const { milestone } = await underPolicy({ requiredApprovals: 1 });
    const { write } = await directApproval(milestone, { share: "50.00", amount: "500000.00" });
    await expect(write({ amount: "500000.01" })).rejects.toThrow();
    await expect(write({ amount: "500000.00" })).resolves.toBeDefined();
  });
});

describe("door 14: a project's currency changed under an approval", () => {
  it("refuses the change while a milestone is in verification, and changes nothing", async () => {
    const { project, milestone } = await underPolicy({ requiredApprovals: 1, cosignAbove: 100 });
    await post(`/api/milestones/${milestone.id}/approve`, a, { comments: "All of it is done." });
    const res = await t.request("PATCH", `/api/projects/${project.id}`, { as: owner, body: { currency: "EUR" } });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toBe("The currency cannot change while a milestone is in verification.");
    expect((await post(`/api/milestones/${milestone.id}/countersign`, lead)).status).toBe(200);
    expect((await releasesOf(milestone.id)).map((r) => [r.amount, r.currency])).toEqual([["1000000.00", "USD"]]);
  });

  it("never leaves a release in another currency than its project's when the two race", async () => {
    for (let i = 0; i < 4; i++) {
      const { project, milestone } = await underPolicy({ requiredApprovals: 1 }, 1_000);
      const [approved, changed] = await Promise.all([
        post(`/api/milestones/${milestone.id}/approve`, a, { comments: "Done." }),
        t.request("PATCH", `/api/projects/${project.id}`, { as: owner, body: { currency: "GBP" } }),
      ]);
      expect(approved.status).toBe(200);
      expect([409, 422]).toContain(changed.status);
      const page = await t.request("GET", `/api/projects/${project.id}`, { as: owner });
      expect(page.body).toMatchObject({ currency: "USD", disbursedCapital: 1_000 });
    }
  });

  it("is refused by the database: a currency changed while a milestone is in verification", async () => {
    const { project } = await underPolicy({ requiredApprovals: 1 }, 1_000);
    const change = t.deps.db.update(projects).set({ currency: "EUR" }).where(eq(projects.id, project.id));
    await expect(change).rejects.toMatchObject({ cause: { code: "TR409" } });
    expect((await t.request("GET", `/api/projects/${project.id}`, { as: owner })).body.currency).toBe("USD");
  });

  it("is refused by the database: a release in another currency, or a currency changed under a release", async () => {
    // Nothing in verification here: the foreign key alone refuses.
    const project = await makeProject(t, { owner, verifiers: [a], totalCapital: 5_000 });
    const milestone = await makeMilestone(t, project, { capitalAmount: 1_000 });
    // The project has no policy: the default rule's version 0.
    const { write } = await directApproval(milestone, { policyVersion: 0 });
    const foreignKey = { cause: { code: "23503" } };
    await expect(write({ currency: "EUR" })).rejects.toMatchObject(foreignKey);
    await write({ currency: "USD" });
    await expect(
      t.deps.db.update(projects).set({ currency: "EUR" }).where(eq(projects.id, project.id)),
    ).rejects.toMatchObject(foreignKey);
  });
});

describe("door 15: a project deleted while a verifier works on it", () => {
  it("answers 409 whether or not an approval is in flight, and the page says why Delete is unavailable", async () => {
    const reason = "A project with a milestone in verification cannot be deleted.";
    for (let i = 0; i < 3; i++) {
      const { project, milestone } = await underPolicy({ requiredApprovals: 1 }, 1_000);
      const page = await t.request("GET", `/api/projects/${project.id}`, { as: owner });
      expect(page.body.permissions).toMatchObject({ canDelete: false, reasons: { delete: reason } });
      const [approved, deleted] = await Promise.all([
        post(`/api/milestones/${milestone.id}/approve`, a, { comments: "Done." }),
        t.request("DELETE", `/api/projects/${project.id}`, { as: owner }),
      ]);
      expect(approved.status).toBe(200);
      expect(deleted.status).toBe(409);
      expect(await milestoneRow(milestone.id)).toBeDefined();
    }
  });
});

describe("door 16: an Idempotency-Key sent again with another request", () => {
  it("refuses the key with a different body, records nothing, and still replays the request it was first used for", async () => {
    const { milestone } = await underPolicy({ requiredApprovals: 1 }, 1_000);
    const headers = { "Idempotency-Key": `approve-${milestone.id}` };
    const half = { share: 50, comments: "Half of the works." };
    const first = await t.request("POST", `/api/milestones/${milestone.id}/approve`, { as: a, headers, body: half });
    expect(first.status).toBe(200);
    await post(`/api/milestones/${milestone.id}/start`, a);

    const other = await t.request("POST", `/api/milestones/${milestone.id}/approve`, {
      as: a,
      headers,
      body: { comments: "The rest is done." },
    });
    expect(other.status).toBe(409);
    expect(other.body.error.message).toBe("This Idempotency-Key was already used for a different request.");
    expect(await releasesOf(milestone.id)).toHaveLength(1);
    expect((await milestoneRow(milestone.id)).status).toBe("in_verification");

    const again = await t.request("POST", `/api/milestones/${milestone.id}/approve`, { as: a, headers, body: half });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
  });
});

describe("door 17: who decides changed while a decision is under way", () => {
  /** The audit ids of a project's events, by action: what committed first is what came first. */
  async function auditOrder(projectId: string) {
    const rows = await t.deps.db
      .select({ id: auditEvents.id, action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.projectId, projectId))
      .orderBy(asc(auditEvents.id));
    // The latest of each: the setup's own policy change comes before the one raced here.
    return (action: string) => rows.findLast((r) => r.action === action)?.id ?? null;
  }

  it("a policy tightened as the verifier approves: released only when the approval came first", async () => {
    for (let i = 0; i < 4; i++) {
      const { project, milestone } = await underPolicy({ requiredApprovals: 1 }, 1_000);
      const tighter = { requiredApprovals: 1, thresholds: [], distinctOrganizations: false, cosignAbove: 1 };
      const [changed, approved] = await Promise.all([
        t.request("PUT", `/api/projects/${project.id}/release-policy`, { as: lead, body: tighter }),
        post(`/api/milestones/${milestone.id}/approve`, a, { comments: "Done." }),
      ]);
      expect(changed.status).toBe(200);
      expect(approved.status).toBeLessThan(500);
      const at = await auditOrder(project.id);
      const releases = await releasesOf(milestone.id);
      const policyFirst = (at("project.release_policy_changed") ?? 0) < (at("milestone.approved") ?? Infinity);
      // Under the tighter rule the release waits for a countersignature: nothing is released before it.
      if (policyFirst) expect(releases).toEqual([]);
      else expect(releases.map((r) => r.policyVersion)).toEqual([1]);
    }
  });

  it("a verifier removed as their approval completes the quorum: it does not count once they are gone", async () => {
    for (let i = 0; i < 4; i++) {
      const { project, milestone } = await underPolicy({ requiredApprovals: 2 }, 1_000);
      expect((await post(`/api/milestones/${milestone.id}/approve`, a, { comments: "Done." })).status).toBe(200);
      const [removed, approved] = await Promise.all([
        t.request("DELETE", `/api/projects/${project.id}/members/${c.id}?role=verifier`, { as: admin }),
        post(`/api/milestones/${milestone.id}/approve`, c, { comments: "Done." }),
      ]);
      expect(removed.status).toBe(204);
      expect(approved.status).toBeLessThan(500);
      const at = await auditOrder(project.id);
      const releases = await releasesOf(milestone.id);
      if ((at("member.removed") ?? 0) < (at("milestone.approved") ?? Infinity)) expect(releases).toEqual([]);
      else expect(releases).toHaveLength(1);
    }
  });

  it("a verifier made an investor as their approval completes the quorum: it does not count once they are", async () => {
    for (let i = 0; i < 4; i++) {
      const d = await t.user("verifier");
      const { project, milestone } = await underPolicy({ requiredApprovals: 2 }, 1_000, [a, b, d]);
      expect((await post(`/api/milestones/${milestone.id}/approve`, a, { comments: "Done." })).status).toBe(200);
      const [changed, approved] = await Promise.all([
        t.request("PATCH", `/api/users/${d.id}`, { as: admin, body: { role: "investor" } }),
        post(`/api/milestones/${milestone.id}/approve`, d, { comments: "Done." }),
      ]);
      expect(changed.status).toBe(200);
      expect(approved.status).toBeLessThan(500);
      const [roleChanged] = await t.deps.db
        .select({ id: auditEvents.id })
        .from(auditEvents)
        .where(and(eq(auditEvents.entityId, d.id), eq(auditEvents.action, "user.role_changed")));
      const at = await auditOrder(project.id);
      const releases = await releasesOf(milestone.id);
      if (roleChanged && roleChanged.id < (at("milestone.approved") ?? Infinity)) expect(releases).toEqual([]);
    }
  });

  it("a verifier made an investor as they reject: a rejection after the change is refused, under the new role", async () => {
    for (let i = 0; i < 4; i++) {
      const d = await t.user("verifier");
      const { milestone } = await underPolicy({ requiredApprovals: 2 }, 1_000, [a, b, d]);
      const [changed, rejected] = await Promise.all([
        t.request("PATCH", `/api/users/${d.id}`, { as: admin, body: { role: "investor" } }),
        post(`/api/milestones/${milestone.id}/reject`, d, { comments: "The invoices do not match." }),
      ]);
      expect(changed.status).toBe(200);
      const [roleChanged] = await t.deps.db
        .select({ id: auditEvents.id })
        .from(auditEvents)
        .where(and(eq(auditEvents.entityId, d.id), eq(auditEvents.action, "user.role_changed")));
      const [rejection] = await t.deps.db
        .select({ id: auditEvents.id })
        .from(auditEvents)
        .where(and(eq(auditEvents.entityId, milestone.id), eq(auditEvents.action, "milestone.rejected")));
      if (rejection) expect(rejection.id).toBeLessThan(roleChanged.id);
      else {
        expect(rejected.status).toBe(403);
        expect((await milestoneRow(milestone.id)).status).toBe("in_verification");
      }
    }
  });

  it("an investor made a verifier as they countersign: refused by the application, never left to the database", async () => {
    for (let i = 0; i < 4; i++) {
      const e = await t.user("investor");
      const { project, milestone } = await underPolicy({ requiredApprovals: 1, cosignAbove: 1 }, 1_000);
      await t.deps.db.insert(projectMembers).values({ projectId: project.id, userId: e.id, role: "investor" });
      expect((await post(`/api/milestones/${milestone.id}/approve`, a, { comments: "Done." })).status).toBe(200);
      const [changed, countersigned] = await Promise.all([
        t.request("PATCH", `/api/users/${e.id}`, { as: admin, body: { role: "verifier" } }),
        post(`/api/milestones/${milestone.id}/countersign`, e),
      ]);
      expect(changed.status).toBe(200);
      // Either it came first and released, or it met the change and was refused as such (403), not by the guard.
      if (countersigned.status !== 200) expect(countersigned.status).toBe(403);
      expect(await releasesOf(milestone.id)).toHaveLength(countersigned.status === 200 ? 1 : 0);
    }
  });

  it("an investor removed as they countersign: nothing is released once they are gone", async () => {
    for (let i = 0; i < 4; i++) {
      const { project, milestone } = await underPolicy({ requiredApprovals: 1, cosignAbove: 1 }, 1_000);
      expect((await post(`/api/milestones/${milestone.id}/approve`, a, { comments: "Done." })).status).toBe(200);
      const [removed, countersigned] = await Promise.all([
        t.request("DELETE", `/api/projects/${project.id}/members/${lead.id}?role=investor`, { as: admin }),
        post(`/api/milestones/${milestone.id}/countersign`, lead),
      ]);
      expect(countersigned.status).toBeLessThan(500);
      const at = await auditOrder(project.id);
      const releases = await releasesOf(milestone.id);
      if (removed.status === 204 && (at("member.removed") ?? 0) < (at("milestone.approved") ?? Infinity)) {
        expect(releases).toEqual([]);
      }
    }
  });

  it("is refused by the database: a release by someone who may not decide it now, or under a replaced policy", async () => {
    const refused = { cause: { code: "TR409" } };
    // An approval by a verifier no longer assigned.
    let { project, milestone } = await underPolicy({ requiredApprovals: 1 });
    let { write, release } = await directApproval(milestone);
    await t.deps.db
      .delete(projectMembers)
      .where(and(eq(projectMembers.projectId, project.id), eq(projectMembers.userId, a.id)));
    await expect(write({})).rejects.toMatchObject(refused);
    // By a verifier who also invests in the project.
    ({ project, milestone } = await underPolicy({ requiredApprovals: 1 }));
    ({ write } = await directApproval(milestone));
    await t.deps.db.insert(projectMembers).values({ projectId: project.id, userId: a.id, role: "investor" });
    await expect(write({})).rejects.toMatchObject(refused);
    // Under a policy version since replaced: the approval's own version, so only the policy check refuses it.
    ({ project, milestone } = await underPolicy({ requiredApprovals: 1 }));
    ({ write } = await directApproval(milestone));
    const stricter = { requiredApprovals: 2, thresholds: [], distinctOrganizations: false, cosignAbove: null };
    const changed = await t.request("PUT", `/api/projects/${project.id}/release-policy`, { as: lead, body: stricter });
    expect(changed.status).toBe(200);
    await t.deps.db
      .update(verificationDecisions)
      .set({ voidedAt: null })
      .where(eq(verificationDecisions.milestoneId, milestone.id));
    await expect(write({})).rejects.toMatchObject(refused);
    // A countersignature by an investor who also verifies the project.
    const both = await t.user("investor");
    ({ project, milestone } = await underPolicy({ requiredApprovals: 1 }));
    await t.deps.db.insert(projectMembers).values([
      { projectId: project.id, userId: both.id, role: "investor" },
      { projectId: project.id, userId: both.id, role: "verifier" },
    ]);
    ({ write, release } = await directApproval(milestone));
    const [countersign] = await t.deps.db
      .insert(verificationDecisions)
      .values({ milestoneId: milestone.id, round: 1, userId: both.id, kind: "countersign", policyVersion: 1 })
      .returning();
    await expect(write({ decisionIds: [...release.decisionIds, countersign.id] })).rejects.toMatchObject(refused);
    // The same release by people who may decide it, under the policy in force, is made.
    ({ write } = await directApproval((await underPolicy({ requiredApprovals: 1 })).milestone));
    await expect(write({})).resolves.toBeDefined();
  });

  it("keeps a project's ordinary work side by side: two milestone edits and an approval at once all succeed", async () => {
    for (let i = 0; i < 4; i++) {
      const { project, milestone } = await underPolicy({ requiredApprovals: 1 }, 1_000);
      const [first, second] = await Promise.all([
        makeMilestone(t, project, { capitalAmount: 1_000 }),
        makeMilestone(t, project, { capitalAmount: 1_000 }),
      ]);
      const answers = await Promise.all([
        t.request("PATCH", `/api/milestones/${first.id}`, { as: owner, body: { capitalAmount: 1_500 } }),
        t.request("PATCH", `/api/milestones/${second.id}`, { as: owner, body: { capitalAmount: 2_000 } }),
        post(`/api/milestones/${milestone.id}/approve`, a, { comments: "Done." }),
      ]);
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    }
  });

  it("never lets one person approve and countersign: an investor who verifies the project is not added", async () => {
    const d = await t.user("verifier");
    const { project, milestone } = await underPolicy({ requiredApprovals: 2, cosignAbove: 1 }, 1_000, [a, b, d]);
    expect((await post(`/api/milestones/${milestone.id}/approve`, d, { comments: "Done." })).status).toBe(200);
    // An admin makes an approving verifier an investor, then tries to add them to the project as one.
    const promoted = await t.request("PATCH", `/api/users/${d.id}`, { as: admin, body: { role: "investor" } });
    expect(promoted.status).toBe(200);
    const added = await t.request("POST", `/api/projects/${project.id}/members`, {
      as: admin,
      body: { userId: d.id, role: "investor" },
    });
    expect(added.status).toBe(422);
    expect(added.body.error.message).toBe(
      "An investor cannot be assigned to a project they verify; remove them as its verifier first.",
    );
    expect(await releasesOf(milestone.id)).toEqual([]);
  });
});

describe("door 18: evidence changed after an approval in an open round", () => {
  const upload = (milestoneId: string, as: TestUser, name: string) => {
    const files = new FormData();
    files.append("files", new Blob([`${name} ${Math.random()}`], { type: "text/plain" }), name);
    return t.request("POST", `/api/milestones/${milestoneId}/evidence`, { as, raw: files });
  };
  const verification = (milestoneId: string, as: TestUser) =>
    t.request("GET", `/api/milestones/${milestoneId}/verification`, { as });

  it("voids the approvals given before a file was added: the release needs approvals made on every file", async () => {
    const { project, milestone } = await underPolicy({}, 1_000);
    expect((await upload(milestone.id, owner, "invoice.pdf")).status).toBe(201);
    expect((await post(`/api/milestones/${milestone.id}/approve`, a, { comments: "Invoice checked." })).status).toBe(
      200,
    );
    expect((await upload(milestone.id, owner, "lien-waiver.pdf")).status).toBe(201);

    const state = await verification(milestone.id, a);
    expect(state.body.quorum).toMatchObject({ approvals: 0 });
    expect(state.body.quorum.decisions.map((d: { voidReason: string }) => d.voidReason)).toEqual(["evidence"]);
    expect(state.body.permissions.canDecide).toBe(true);
    // The second approval alone does not release: the first stood for one file of two.
    expect((await post(`/api/milestones/${milestone.id}/approve`, c)).body.status).toBe("in_verification");
    expect(await releasesOf(milestone.id)).toEqual([]);
    const told = await t.request("GET", "/api/notifications", { as: a });
    expect(told.body.items.find((n: { title: string }) => n.title.startsWith("Evidence changed"))).toMatchObject({
      title: "Evidence changed: decide again",
      message: `${owner.name} added "lien-waiver.pdf" to "${milestone.title}" after you decided: your decision was made on other evidence and no longer counts. Look at the evidence and decide again.`,
    });
    const [voided] = await t.deps.db
      .select({ after: auditEvents.after })
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, milestone.id), eq(auditEvents.action, "milestone.decisions_voided")));
    expect(voided.after).toEqual({
      reason: "evidence",
      round: 1,
      added: ["lien-waiver.pdf"],
      decisions: [{ userId: a.id, kind: "approve" }],
    });

    const done = await post(`/api/milestones/${milestone.id}/approve`, a, { comments: "Both files checked." });
    expect(done.body.status).toBe("verified");
    const [release] = await releasesOf(milestone.id);
    expect(release.projectId).toBe(project.id);
  });

  it("keeps a file a decision was made on, and leaves a round with no decision alone", async () => {
    const { milestone } = await underPolicy({}, 1_000);
    const photo = await upload(milestone.id, a, "site-photo.jpg");
    expect(photo.status).toBe(201);
    await post(`/api/milestones/${milestone.id}/approve`, c);
    // Taking the photo back would leave c's approval standing on a file the record no longer holds: refused.
    const removed = await t.request("DELETE", `/api/evidence/${photo.body.items[0].id}`, { as: a });
    expect(removed.status).toBe(409);
    const state = await verification(milestone.id, c);
    expect(state.body.quorum).toMatchObject({ approvals: 1 });

    const quiet = await underPolicy({}, 1_000);
    expect((await upload(quiet.milestone.id, owner, "invoice.pdf")).status).toBe(201);
    const none = await t.deps.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, quiet.milestone.id), eq(auditEvents.action, "milestone.decisions_voided")));
    expect(none).toEqual([]);
  });

  it("refuses a decision sent on evidence that has changed since it was seen: approval, rejection, countersignature", async () => {
    const { milestone } = await underPolicy({ requiredApprovals: 1, cosignAbove: 1 }, 1_000);
    const seen = (await verification(milestone.id, a)).body;
    expect(seen.evidenceVersion).toBe(0);
    expect((await upload(milestone.id, owner, "forged-lien-waiver.pdf")).status).toBe(201);
    const views = { round: seen.round, policyVersion: seen.quorum.policyVersion, evidenceVersion: 0 };
    for (const [path, body] of [
      ["approve", { ...views }],
      ["reject", { ...views, comments: "The waiver is unsigned." }],
    ] as const) {
      const refused = await post(`/api/milestones/${milestone.id}/${path}`, a, body);
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({
        code: "stale_round",
        message: `The evidence of "${milestone.title}" changed since you saw it: a file was added or removed. Look at it again before you act.`,
        details: { evidenceVersion: { seen: 0, current: 1 } },
      });
    }
    // Seen again, the approval stands; an investor's countersignature prepared before a later file is refused too.
    expect((await post(`/api/milestones/${milestone.id}/approve`, a, { ...views, evidenceVersion: 1 })).status).toBe(
      200,
    );
    const before = (await verification(milestone.id, lead)).body;
    expect(before.permissions.canCountersign).toBe(true);
    expect((await upload(milestone.id, owner, "late-invoice.pdf")).status).toBe(201);
    const countersigned = await post(`/api/milestones/${milestone.id}/countersign`, lead, {
      round: before.round,
      policyVersion: before.quorum.policyVersion,
      evidenceVersion: before.evidenceVersion,
    });
    expect(countersigned.status).toBe(409);
    expect(await releasesOf(milestone.id)).toEqual([]);
  });

  it("is refused by the database: a release naming a decision made before the milestone's evidence changed", async () => {
    const { milestone } = await underPolicy({ requiredApprovals: 1 });
    const { write } = await directApproval(milestone);
    await t.deps.db.execute(
      sql`insert into evidence (milestone_id, sha256, size, content_type, original_name, uploaded_by)
          values (${milestone.id}, ${"ab".repeat(32)}, 1, 'text/plain', 'late.txt', ${owner.id})`,
    );
    await expect(write({})).rejects.toThrow();
    // Whatever an insert or an update says, a decision keeps the evidence it was made on.
    const [decision] = await t.deps.db
      .select()
      .from(verificationDecisions)
      .where(eq(verificationDecisions.milestoneId, milestone.id));
    expect(decision.evidenceVersion).toBe(0);
    await expect(
      t.deps.db
        .update(verificationDecisions)
        .set({ evidenceVersion: 1 })
        .where(eq(verificationDecisions.id, decision.id)),
    ).rejects.toThrow();
  });
});
