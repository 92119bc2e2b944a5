// Release rules (issue 13, docs/domain.md "Release rules"): a versioned policy per project, several verifiers'
// approvals, thresholds by amount, distinct organizations, the investor's countersignature, partial releases and
// void approvals after a resubmission. Refused actions change nothing; the release is created once.
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, disbursements, milestones, notifications, outbox, projectMembers } from "../src/db/schema";
import { withReleaseCheckpoint } from "../src/services/audit/checkpoints";
import { storedCertificate } from "../src/services/certificates/facts";
import type { DomainEvent } from "../src/services/outbox/outbox";
import { releaseEventData } from "../src/services/releases/dto";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

let t: TestApp;
let owner: TestUser;
let lead: TestUser;
let investor: TestUser;
let admin: TestUser;
let v1: TestUser;
let v2: TestUser;
let v3: TestUser;
let sameOrg: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  [owner, lead, investor, admin] = await Promise.all([
    t.user("project_owner"),
    t.user("investor"),
    t.user("investor"),
    t.user("admin"),
  ]);
  [v1, v2, v3, sameOrg] = await Promise.all([
    t.user("verifier", { organization: "Northwind Audit", verifiedOrganization: "Northwind Audit" }),
    t.user("verifier", { organization: "Meridian Assurance", verifiedOrganization: "Meridian Assurance" }),
    t.user("verifier", { organization: "Kestrel Engineering", verifiedOrganization: "Kestrel Engineering" }),
    t.user("verifier", { organization: "Northwind Audit", verifiedOrganization: "Northwind Audit" }),
  ]);
});
afterAll(() => t.close());

const post = (path: string, as: TestUser | null, body?: unknown) => t.request("POST", path, { as, body });
const put = (path: string, as: TestUser | null, body?: unknown) => t.request("PUT", path, { as, body });

const policy = (overrides: Record<string, unknown> = {}) => ({
  requiredApprovals: 2,
  thresholds: [],
  distinctOrganizations: false,
  cosignAbove: null,
  ...overrides,
});

/** A project with a lead investor, a second investor and the given verifiers, under `rule` when given. */
async function scenario(rule?: Record<string, unknown>, verifiers = [v1, v2, v3], amount = 400_000) {
  const project = await makeProject(t, { owner, investors: [lead, investor], verifiers, totalCapital: 5_000_000 });
  expect((await put(`/api/projects/${project.id}/lead-investor`, admin, { userId: lead.id })).status).toBe(200);
  if (rule) expect((await put(`/api/projects/${project.id}/release-policy`, lead, policy(rule))).status).toBe(200);
  const milestone = await makeMilestone(t, project, { status: "in_verification", verifier: v1, capitalAmount: amount });
  return { project, milestone };
}

async function releasesOf(milestoneId: string) {
  return t.deps.db
    .select()
    .from(disbursements)
    .where(eq(disbursements.milestoneId, milestoneId))
    .orderBy(asc(disbursements.round));
}

async function statusOf(milestoneId: string) {
  const [row] = await t.deps.db.select().from(milestones).where(eq(milestones.id, milestoneId));
  return row;
}

describe("the release policy", () => {
  it("is versioned, set by admins and the lead investor only, audited and told to the members", async () => {
    const project = await makeProject(t, { owner, investors: [lead, investor], verifiers: [v1, v2, v3] });
    const path = `/api/projects/${project.id}/release-policy`;

    const initial = await t.request("GET", path, { as: owner });
    expect(initial.status).toBe(200);
    expect(initial.body.current).toMatchObject({ version: 0, requiredApprovals: 1, cosignAbove: null });
    expect(initial.body.current.statement).toBe("1 of 3 assigned verifiers");
    expect(initial.body.canEdit).toBe(false);

    // Nobody but an admin or the lead investor; the lead is named by an admin, and only among investors.
    for (const who of [owner, investor, v1, lead]) {
      expect((await put(path, who, policy())).status).toBe(403);
    }
    expect((await put(`/api/projects/${project.id}/lead-investor`, lead, { userId: lead.id })).status).toBe(403);
    expect((await put(`/api/projects/${project.id}/lead-investor`, admin, { userId: v1.id })).status).toBe(422);
    const named = await put(`/api/projects/${project.id}/lead-investor`, admin, { userId: lead.id });
    expect(named.status).toBe(200);
    expect(named.body.investors.find((m: { id: string }) => m.id === lead.id).isLead).toBe(true);

    // Bad input: 400 naming the field, nothing written.
    const bad = await put(path, lead, policy({ requiredApprovals: 6 }));
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.requiredApprovals).toBe("Required approvals must be a whole number from 1 to 5.");
    expect((await put(path, lead, policy({ cosignAbove: -5 }))).body.error.details.cosignAbove).toBeDefined();

    const first = await put(path, lead, policy({ distinctOrganizations: true, cosignAbove: 1_000_000 }));
    expect(first.status).toBe(200);
    expect(first.body.current.version).toBe(1);
    expect(first.body.current.statement).toBe(
      "2 of 3 assigned verifiers from different organizations; investor countersign above $1,000,000",
    );
    const second = await put(path, admin, policy({ thresholds: [{ minAmount: 500_000, approvals: 3 }] }));
    expect(second.body.current.version).toBe(2);
    expect(second.body.current.statement).toBe("2 of 3 assigned verifiers; 3 for milestones of $500,000 or more");
    expect(second.body.history.map((v: { version: number }) => v.version)).toEqual([2, 1]);

    const detail = await t.request("GET", `/api/projects/${project.id}`, { as: investor });
    expect(detail.body.releasePolicy).toEqual({ version: 2, statement: second.body.current.statement });

    const audits = await t.deps.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, project.id), eq(auditEvents.action, "project.release_policy_changed")))
      .orderBy(asc(auditEvents.id));
    expect(audits.map((a) => (a.after as { version: number }).version)).toEqual([1, 2]);
    for (const member of [owner, investor, v2]) {
      const told = await t.deps.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, member.id), eq(notifications.title, "Release policy changed")));
      expect(told.length).toBeGreaterThanOrEqual(2);
    }
  });
});

describe("verification under a policy", () => {
  it("needs 2 of 3 approvals, shows who and when, and releases once with the policy version", async () => {
    const { milestone } = await scenario({});
    const first = await post(`/api/milestones/${milestone.id}/approve`, v2, { comments: "Site visit done." });
    expect(first.status).toBe(200);
    expect(first.body.status).toBe("in_verification");
    expect(first.body.quorum).toMatchObject({ required: 2, approvals: 1, policyVersion: 1 });
    expect(first.body.quorum.decisions[0]).toMatchObject({ kind: "approve", userName: v2.name, voidedAt: null });
    expect(await releasesOf(milestone.id)).toHaveLength(0);

    // The same verifier cannot approve twice; a verifier who has not decided still can.
    expect((await post(`/api/milestones/${milestone.id}/approve`, v2)).status).toBe(409);
    const view = await t.request("GET", `/api/milestones/${milestone.id}/verification`, { as: v3 });
    expect(view.body.permissions.canDecide).toBe(true);

    const second = await post(`/api/milestones/${milestone.id}/approve`, v3);
    expect(second.status).toBe(200);
    expect(second.body.status).toBe("verified");
    expect(second.body.quorum.approvals).toBe(2);
    const [release] = await releasesOf(milestone.id);
    expect(release).toMatchObject({ amount: "400000.00", policyVersion: 1, releasedBy: v3.id });
    expect((await post(`/api/milestones/${milestone.id}/approve`, v1)).status).toBe(409);
    expect(await releasesOf(milestone.id)).toHaveLength(1);
  });

  it("raises the approvals needed for milestones at or above a threshold", async () => {
    const rule = { requiredApprovals: 1, thresholds: [{ minAmount: 300_000, approvals: 3 }] };
    const { milestone } = await scenario(rule, [v1, v2, v3], 300_000);
    for (const [who, status] of [
      [v1, "in_verification"],
      [v2, "in_verification"],
      [v3, "verified"],
    ] as const) {
      const res = await post(`/api/milestones/${milestone.id}/approve`, who);
      expect(res.body.status).toBe(status);
    }
    // Below the threshold the base number applies: the starter's approval alone releases.
    const small = await makeMilestone(t, { id: milestone.projectId }, { status: "in_verification", verifier: v1 });
    expect((await post(`/api/milestones/${small.id}/approve`, v1)).body.status).toBe("verified");
  });

  it("counts approvals only from different organizations when the policy says so", async () => {
    const { milestone } = await scenario({ distinctOrganizations: true }, [v1, sameOrg, v2]);
    expect((await post(`/api/milestones/${milestone.id}/approve`, v1)).status).toBe(200);
    const refused = await post(`/api/milestones/${milestone.id}/approve`, sameOrg);
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toContain("Northwind Audit has already approved");
    expect((await statusOf(milestone.id)).status).toBe("in_verification");
    expect((await post(`/api/milestones/${milestone.id}/approve`, v2)).body.status).toBe("verified");
  });

  it("waits for an investor's countersignature above the amount, then releases in that transaction", async () => {
    const { milestone } = await scenario({ cosignAbove: 250_000 }, [v1, v2]);
    // The investor's dashboard counts what waits on their countersignature under Action Required.
    const actionRequired = async () =>
      (await t.request("GET", "/api/dashboard", { as: investor })).body.overview.actionRequired as {
        count: number;
        label: string;
      };
    const before = await actionRequired();
    const early = await post(`/api/milestones/${milestone.id}/countersign`, investor);
    expect(early.status).toBe(409);
    expect(early.body.error.message).toBe("The verifiers have not yet agreed: 0 of 2 approvals.");
    await post(`/api/milestones/${milestone.id}/approve`, v1);
    const quorum = await post(`/api/milestones/${milestone.id}/approve`, v2);
    expect(quorum.body).toMatchObject({ status: "in_verification", quorum: { awaitingCountersign: true } });
    expect(await releasesOf(milestone.id)).toHaveLength(0);
    const asked = await t.deps.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, investor.id), eq(notifications.title, "Countersignature needed")));
    expect(asked).toHaveLength(1);
    const waiting = await actionRequired();
    expect(waiting.count).toBe(before.count + 1);
    expect(waiting.label).toMatch(/^releases? to countersign/);

    // Verifiers, the owner and admins cannot countersign.
    for (const who of [v1, owner, admin]) {
      expect((await post(`/api/milestones/${milestone.id}/countersign`, who)).status).toBe(403);
    }
    const signed = await post(`/api/milestones/${milestone.id}/countersign`, investor, { comments: "Agreed." });
    expect(signed.status).toBe(200);
    expect(signed.body.status).toBe("verified");
    const [release] = await releasesOf(milestone.id);
    expect(release).toMatchObject({ amount: "400000.00", releasedBy: investor.id, policyVersion: 1 });
    expect((await actionRequired()).count).toBe(before.count);
    expect((await post(`/api/milestones/${milestone.id}/countersign`, lead)).status).toBe(409);

    // The certificate (issued with the release) lists every approval, the countersignature and the policy version.
    const { facts } = (await storedCertificate(t.deps.db, release.id)) ?? expect.unreachable("no certificate");
    expect(facts.policy).toBe(
      "Release policy version 1: 2 of 2 assigned verifiers; investor countersign above $250,000",
    );
    expect(facts.approvals.map((a) => [a.verifier.name, a.decision])).toEqual([
      [v1.name, "approved"],
      [v2.name, "approved"],
      [investor.name, "countersigned"],
    ]);
    expect(facts.auditEvent).not.toBeNull();
  });

  it("rejects on any verifier's reasoned rejection; a resubmission voids the earlier approvals", async () => {
    const { milestone } = await scenario({});
    await post(`/api/milestones/${milestone.id}/approve`, v1);
    const short = await post(`/api/milestones/${milestone.id}/reject`, v2, { comments: "No." });
    expect(short.status).toBe(400);
    expect(short.body.error.details.comments).toContain("at least 10 characters");
    const rejected = await post(`/api/milestones/${milestone.id}/reject`, v2, {
      comments: "The invoices are missing.",
    });
    expect(rejected.body.status).toBe("rejected");

    expect((await post(`/api/milestones/${milestone.id}/resubmit`, owner)).status).toBe(200);
    expect((await post(`/api/milestones/${milestone.id}/start`, v3)).status).toBe(200);
    const view = await t.request("GET", `/api/milestones/${milestone.id}/verification`, { as: owner });
    expect(view.body.quorum.approvals).toBe(0);
    expect(
      view.body.quorum.decisions.map((d: { kind: string; voidedAt: string | null }) => [d.kind, !!d.voidedAt]),
    ).toEqual([
      ["approve", true],
      ["reject", true],
    ]);
    // v1's earlier approval no longer counts: two fresh approvals are needed.
    expect((await post(`/api/milestones/${milestone.id}/approve`, v1)).body.status).toBe("in_verification");
    expect((await post(`/api/milestones/${milestone.id}/approve`, v2)).body.status).toBe("verified");
  });

  it("releases the lowest agreed share and leaves the remainder for a follow-up verification", async () => {
    const { project, milestone } = await scenario({}, [v1, v2], 400_000);
    const unreasoned = await post(`/api/milestones/${milestone.id}/approve`, v1, { share: 60 });
    expect(unreasoned.status).toBe(400);
    await post(`/api/milestones/${milestone.id}/approve`, v1, { share: 75, comments: "Roof not yet finished." });
    const agreed = await post(`/api/milestones/${milestone.id}/approve`, v2, {
      share: 60,
      comments: "Only the foundations are complete.",
    });
    expect(agreed.body).toMatchObject({ status: "pending", quorum: { approvals: 0, openAmount: 160_000 } });
    expect((await releasesOf(milestone.id)).map((r) => r.amount)).toEqual(["240000.00"]);

    const detail = await t.request("GET", `/api/projects/${project.id}`, { as: owner });
    expect(detail.body.disbursedCapital).toBe(240_000);

    // The follow-up round releases what is left, and the milestone is then verified.
    expect((await post(`/api/milestones/${milestone.id}/start`, v1)).status).toBe(200);
    await post(`/api/milestones/${milestone.id}/approve`, v1);
    const done = await post(`/api/milestones/${milestone.id}/approve`, v2);
    expect(done.body.status).toBe("verified");
    expect((await releasesOf(milestone.id)).map((r) => [r.round, r.amount])).toEqual([
      [1, "240000.00"],
      [2, "160000.00"],
    ]);
    const after = await t.request("GET", `/api/projects/${project.id}`, { as: owner });
    expect(after.body.disbursedCapital).toBe(400_000);
    // The milestone page lists both releases, oldest first; its latest is the remainder.
    const page = await t.request("GET", `/api/milestones/${milestone.id}`, { as: owner });
    expect(page.body.releases.map((r: { amount: number; status: string }) => [r.amount, r.status])).toEqual([
      [240_000, "instructed"],
      [160_000, "instructed"],
    ]);
    expect(page.body.release.amount).toBe(160_000);
    // Each release's instruction, and any later event of it, cites the approval that made that release.
    const approvals = await t.deps.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, milestone.id), eq(auditEvents.action, "milestone.approved")))
      .orderBy(asc(auditEvents.id));
    const cited = (releaseId: string) =>
      approvals.find((e) => (e.after as { release: { disbursementId: string } }).release.disbursementId === releaseId)
        ?.hash;
    const [first, second] = await releasesOf(milestone.id);
    expect(cited(first.id)).toBeDefined();
    expect(cited(first.id)).not.toBe(cited(second.id));
    expect((await releaseEventData(t.deps.db, first.id)).approvalEventHash).toBe(cited(first.id));
    // Each instruction leaves (with its checkpoint) citing its own approval.
    const instructions = (await t.deps.db.select().from(outbox).where(eq(outbox.topic, "event")))
      .map((m) => m.payload as DomainEvent)
      .filter((e) => e.type === "release.instructed");
    for (const release of [first, second]) {
      const event = instructions.find((e) => e.data.releaseId === release.id) as DomainEvent;
      const sent = await withReleaseCheckpoint(t.deps.db, t.deps.auditKey, event);
      expect(sent.data.approvalEventHash).toBe(cited(release.id));
    }
  });

  it("answers every decision with the verification a fresh read gives the same person", async () => {
    /** Posts a decision and compares its answer (built from the round in hand) with a read after it. */
    const decide = async (milestoneId: string, action: string, who: TestUser, body?: unknown) => {
      const answer = await post(`/api/milestones/${milestoneId}/${action}`, who, body);
      expect(answer.status).toBe(200);
      const read = await t.request("GET", `/api/milestones/${milestoneId}/verification`, { as: who });
      expect(answer.body).toEqual(read.body);
      return answer.body as { status: string; round: number; quorum: { approvals: number; openAmount: number } };
    };
    // A quorum of two with a countersignature: recorded, reached, released.
    const cosigned = (await scenario({ cosignAbove: 250_000 }, [v1, v2])).milestone.id;
    expect((await decide(cosigned, "approve", v1)).status).toBe("in_verification");
    expect((await decide(cosigned, "approve", v2)).quorum.approvals).toBe(2);
    expect((await decide(cosigned, "countersign", investor, { comments: "Agreed." })).status).toBe("verified");
    // Shares: the lowest releases part, and the milestone goes back to pending for the rest.
    const shared = (await scenario({}, [v1, v2])).milestone.id;
    await decide(shared, "approve", v1, { share: 75, comments: "Roof not yet finished." });
    const part = await decide(shared, "approve", v2, { share: 60, comments: "Only the foundations are complete." });
    expect(part).toMatchObject({ status: "pending", round: 2, quorum: { approvals: 0, openAmount: 160_000 } });
    // A disputed rejection, decided by the verifier an admin assigned: the dispute closes with the release.
    const disputed = (await scenario({}, [v1, v2, v3])).milestone.id;
    await decide(disputed, "reject", v1, { comments: "The invoices are missing." });
    await post(`/api/milestones/${disputed}/dispute`, owner, { statement: "The invoices are in evidence file 3." });
    await post(`/api/milestones/${disputed}/dispute/assign`, admin, { verifierId: v2.id });
    expect((await decide(disputed, "approve", v2, { comments: "Invoices found." })).status).toBe("verified");
  });

  it("keeps the default rule: the verifier who started approves alone", async () => {
    const project = await makeProject(t, { owner, investors: [investor], verifiers: [v1, v2] });
    const milestone = await makeMilestone(t, project, { status: "in_verification", verifier: v1 });
    expect((await post(`/api/milestones/${milestone.id}/approve`, v2)).status).toBe(403);
    const res = await post(`/api/milestones/${milestone.id}/approve`, v1);
    expect(res.body).toMatchObject({ status: "verified", quorum: { policyVersion: 0, required: 1, approvals: 1 } });
    const [release] = await releasesOf(milestone.id);
    expect(release.policyVersion).toBe(0);
    const [member] = await t.deps.db.select().from(projectMembers).where(eq(projectMembers.userId, investor.id));
    expect(member.isLead).toBe(false);
  });

  it("lets the owner dispute a rejection; the different verifier an admin assigns decides and closes it", async () => {
    const { milestone } = await scenario({}, [v1, v2, v3]);
    await post(`/api/milestones/${milestone.id}/reject`, v1, { comments: "The invoices are missing." });
    const short = await post(`/api/milestones/${milestone.id}/dispute`, owner, { statement: "No." });
    expect(short.status).toBe(400);
    expect(
      (await post(`/api/milestones/${milestone.id}/dispute`, investor, { statement: "Please look again." })).status,
    ).toBe(403);
    const opened = await post(`/api/milestones/${milestone.id}/dispute`, owner, {
      statement: "The invoices are in evidence file 3, uploaded on time.",
    });
    expect(opened.status).toBe(200);
    expect(opened.body.dispute).toMatchObject({ outcome: null, verifierId: null, openedByName: owner.name });
    expect(
      (await post(`/api/milestones/${milestone.id}/dispute`, owner, { statement: "Once more, please." })).status,
    ).toBe(409);
    expect((await post(`/api/milestones/${milestone.id}/resubmit`, owner)).status).toBe(409);

    const assign = (who: TestUser, verifierId: string) =>
      post(`/api/milestones/${milestone.id}/dispute/assign`, who, { verifierId });
    expect((await assign(owner, v2.id)).status).toBe(403);
    expect((await assign(admin, v1.id)).status).toBe(422); // v1 rejected it: not a different verifier
    expect((await assign(admin, investor.id)).status).toBe(422);
    const assigned = await assign(admin, v2.id);
    expect(assigned.body).toMatchObject({ status: "in_verification", verifierId: v2.id, quorum: { required: 1 } });

    // Only the assigned verifier decides, alone: their approval releases and closes the dispute.
    expect((await post(`/api/milestones/${milestone.id}/approve`, v3)).status).toBe(403);
    const decided = await post(`/api/milestones/${milestone.id}/approve`, v2, { comments: "Invoices found." });
    expect(decided.body).toMatchObject({ status: "verified", dispute: { outcome: "approved", verifierId: v2.id } });
    expect(await releasesOf(milestone.id)).toHaveLength(1);
    const history = await t.request("GET", `/api/milestones/${milestone.id}/history`, { as: owner });
    expect(history.body.items.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining([
        "milestone.rejected",
        "milestone.disputed",
        "milestone.dispute_assigned",
        "milestone.approved",
      ]),
    );
  });
});
