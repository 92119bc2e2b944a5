// The release lifecycle (docs/domain.md "Releases beyond Tranche", ADR 010): an approval instructs the release; the
// custodian settles or fails it with an API token; an admin re-instructs or cancels a failed one. Every
// transition is locked, audited, notified and published to the outbox in its own transaction.
import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../src/db/client";
import { auditEvents, disbursements, milestones, notifications, outbox } from "../src/db/schema";
import { withReleaseCheckpoint } from "../src/services/audit/checkpoints";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser, usePostgres } from "./harness";

let t: TestApp;
let admin: TestUser;
let owner: TestUser;
let investor: TestUser;
let verifier: TestUser;
let outsider: TestUser;
let custodian: string;

beforeAll(async () => {
  t = await createTestApp({ API_TOKEN_LIMIT_PER_MINUTE: 1000 });
  [admin, owner, investor, verifier, outsider] = await Promise.all([
    t.user("admin"),
    t.user("project_owner", { name: "Ada Owner", organization: "Solar Coop" }),
    t.user("investor"),
    t.user("verifier", { name: "Vera Verifier" }),
    t.user("project_owner"),
  ]);
  custodian = await token(["releases:read", "releases:write"]);
});
afterAll(() => t.close());

async function token(scopes: string[], name = "Custodian"): Promise<string> {
  const res = await t.request("POST", "/api/api-tokens", { as: admin, body: { name, scopes } });
  expect(res.status).toBe(201);
  return res.body.token;
}

const bearer = (value: string) => ({ authorization: `Bearer ${value}` });

/** A project with one milestone approved through the API: its release is instructed. */
async function approved(capitalAmount = 250_000, title = "Foundations poured") {
  const project = await makeProject(t, {
    owner,
    investors: [investor],
    verifiers: [verifier],
    totalCapital: 1_000_000,
    name: "Solar Farm",
  });
  const milestone = await makeMilestone(t, project, { status: "in_verification", verifier, capitalAmount, title });
  const res = await t.request("POST", `/api/milestones/${milestone.id}/approve`, {
    as: verifier,
    body: { comments: "All evidence checked." },
  });
  expect(res.status).toBe(200);
  const [release] = await t.deps.db.select().from(disbursements).where(eq(disbursements.milestoneId, milestone.id));
  return { project, milestone, release };
}

async function eventsFor(type: string, match: (data: any) => boolean) {
  const rows = await t.deps.db.select().from(outbox).where(eq(outbox.topic, "event")).orderBy(asc(outbox.createdAt));
  return rows.map((r) => r.payload as any).filter((e) => e.type === type && match(e.data));
}

const settle = (id: string, body: unknown, as = custodian) =>
  t.request("POST", `/api/releases/${id}/settle`, { headers: bearer(as), body });
const fail = (id: string, body: unknown, as = custodian) =>
  t.request("POST", `/api/releases/${id}/fail`, { headers: bearer(as), body });

describe("approval instructs the release", () => {
  it("creates one instructed release and publishes release.instructed and milestone.verified with the contract's data", async () => {
    const { project, milestone, release } = await approved(1_250_000 / 5, "Foundations poured");
    expect(release.status).toBe("instructed");
    expect(release.instructionId).toMatch(/^[0-9a-f-]{36}$/);

    // As it leaves: the approval's hash and a checkpoint join the published event on its way out.
    const [published] = await eventsFor("release.instructed", (d) => d.releaseId === release.id);
    const instructed = await withReleaseCheckpoint(t.deps.db, t.deps.auditKey, published);
    const { checkpoint, ...data } = instructed.data;
    expect(checkpoint).toBeDefined();
    const [approval] = await t.deps.db
      .select({ hash: auditEvents.hash })
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, milestone.id), eq(auditEvents.action, "milestone.approved")));
    expect(instructed.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(data).toEqual({
      releaseId: release.id,
      instructionId: release.instructionId,
      status: "instructed",
      amount: "250000.00",
      currency: "USD",
      milestone: { id: milestone.id, name: "Foundations poured" },
      project: { id: project.id, name: "Solar Farm" },
      beneficiary: { id: owner.id, name: "Ada Owner", organization: "Solar Coop" },
      verifiers: [{ id: verifier.id, name: "Vera Verifier" }],
      approvedAt: release.releasedAt.toISOString(),
      approvalEventHash: approval.hash,
    });

    const [verified] = await eventsFor("milestone.verified", (d) => d.milestone.id === milestone.id);
    expect(verified.data).toMatchObject({
      milestone: { id: milestone.id, name: "Foundations poured" },
      project: { id: project.id, name: "Solar Farm" },
      verifier: { id: verifier.id, name: "Vera Verifier" },
      comment: "All evidence checked.",
    });
    expect(Date.parse(verified.data.decidedAt)).not.toBeNaN();

    const detail = await t.request("GET", `/api/milestones/${milestone.id}`, { as: owner });
    expect(detail.body.release).toMatchObject({ id: release.id, status: "instructed", amount: 250_000 });
  });

  it("publishes milestone.rejected with the verifier's comment", async () => {
    const project = await makeProject(t, { owner, verifiers: [verifier] });
    const milestone = await makeMilestone(t, project, { status: "in_verification", verifier });
    const res = await t.request("POST", `/api/milestones/${milestone.id}/reject`, {
      as: verifier,
      body: { comments: "Receipts missing." },
    });
    expect(res.status).toBe(200);
    const [event] = await eventsFor("milestone.rejected", (d) => d.milestone.id === milestone.id);
    expect(event.data).toMatchObject({
      project: { id: project.id },
      verifier: { id: verifier.id },
      comment: "Receipts missing.",
    });
  });

  it("a rolled-back approval publishes nothing", async () => {
    const project = await makeProject(t, { owner, verifiers: [verifier] });
    const first = await makeMilestone(t, project, { status: "in_verification", verifier });
    const second = await makeMilestone(t, project, { status: "in_verification", verifier });
    const key = `rollback-${first.id}`;
    const ok = await t.request("POST", `/api/milestones/${first.id}/approve`, {
      as: verifier,
      body: {},
      headers: { "Idempotency-Key": key },
    });
    expect(ok.status).toBe(200);
    // The same key on another milestone: the approval's transaction rolls back after it wrote its events.
    const refused = await t.request("POST", `/api/milestones/${second.id}/approve`, {
      as: verifier,
      body: {},
      headers: { "Idempotency-Key": key },
    });
    expect(refused.status).toBe(409);
    expect(await eventsFor("milestone.verified", (d) => d.milestone.id === second.id)).toHaveLength(0);
    expect(await eventsFor("release.instructed", (d) => d.milestone.id === second.id)).toHaveLength(0);
    const [row] = await t.deps.db.select().from(milestones).where(eq(milestones.id, second.id));
    expect(row.status).toBe("in_verification");
  });
});

describe("settle", () => {
  it("settles with the custodian's reference: audited with the token as actor, owners and investors notified, event published", async () => {
    const { milestone, release, project } = await approved();
    // Paid a minute after it was instructed, on the custodian's clock running two minutes behind ours.
    const settledAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000).toISOString();
    const res = await settle(release.id, { reference: "WIRE-2026-0001", settledAt });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: release.id,
      status: "settled",
      settlement: { reference: "WIRE-2026-0001", settledAt },
    });

    const audit = await t.deps.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, release.id), eq(auditEvents.action, "release.settled")));
    expect(audit).toHaveLength(1);
    const [tokenRow] = (await t.request("GET", "/api/api-tokens", { as: admin })).body.items.filter(
      (k: { name: string }) => k.name === "Custodian",
    );
    expect(audit[0].actorId).toBe(tokenRow.id);
    expect(audit[0].after).toMatchObject({ status: "settled", apiToken: { id: tokenRow.id, name: "Custodian" } });
    // The milestone's history names the token as the actor.
    const history = await t.request("GET", `/api/milestones/${milestone.id}/history`, { as: owner });
    const settledEvent = history.body.items.find((e: { action: string }) => e.action === "release.settled");
    expect(settledEvent.actor).toEqual({ id: tokenRow.id, name: "API token Custodian" });

    const notes = await t.deps.db
      .select()
      .from(notifications)
      .where(
        and(
          inArray(notifications.userId, [owner.id, investor.id, verifier.id]),
          eq(notifications.title, "Capital settled"),
        ),
      );
    const forThis = notes.filter((n) => (n.subject as { milestoneId?: string }).milestoneId === milestone.id);
    expect(forThis.map((n) => n.userId).sort()).toEqual([owner.id, investor.id].sort());
    expect(forThis[0].message).toContain("WIRE-2026-0001");
    expect(forThis[0].category).toBe("release");

    const [event] = await eventsFor("release.settled", (d) => d.releaseId === release.id);
    expect(event.data).toMatchObject({
      status: "settled",
      settlement: { reference: "WIRE-2026-0001", settledAt },
      project: { id: project.id },
    });
  });

  it("repeating the same reference is an idempotent 200; another reference is 409; nothing changes twice", async () => {
    const { release } = await approved();
    expect((await settle(release.id, { reference: "REF-1" })).status).toBe(200);
    const again = await settle(release.id, { reference: "REF-1" });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.settlement.reference).toBe("REF-1");
    const other = await settle(release.id, { reference: "REF-2" });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe("conflict");
    expect(await eventsFor("release.settled", (d) => d.releaseId === release.id)).toHaveLength(1);
    const audit = await t.deps.db.select().from(auditEvents).where(eq(auditEvents.entityId, release.id));
    // The certificate was issued with the release; the settlement is recorded once.
    expect(audit.map((e) => e.action).sort()).toEqual(["certificate.issued", "release.settled"]);
  });

  it("concurrent settles with different references: exactly one wins, the rest are 409", async () => {
    const { release } = await approved();
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => settle(release.id, { reference: `RACE-${i}` })),
    );
    const won = responses.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409)).toHaveLength(11);
    const [row] = await t.deps.db.select().from(disbursements).where(eq(disbursements.id, release.id));
    expect(row.settlementReference).toBe(won[0].body.settlement.reference);
    expect(await eventsFor("release.settled", (d) => d.releaseId === release.id)).toHaveLength(1);
  });

  it("refuses bad input with 400 naming the field, and every person's session", async () => {
    const { release } = await approved();
    const missing = await settle(release.id, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.reference).toBeDefined();
    const badTime = await settle(release.id, { reference: "X", settledAt: "yesterday" });
    expect(badTime.status).toBe(400);
    expect(badTime.body.error.details.settledAt).toBeDefined();
    const future = await settle(release.id, { reference: "X", settledAt: "2999-01-01T00:00:00Z" });
    expect(future.status).toBe(400);
    // Paid before it was asked for: a settlement dated before the instruction is refused.
    const early = await settle(release.id, { reference: "X", settledAt: "2001-01-01T00:00:00Z" });
    expect(early.status).toBe(400);
    expect(early.body.error.details.settledAt).toMatch(/^settledAt cannot be before the release was instructed/);
    expect(early.body.error.message).toMatch(/^settledAt: settledAt cannot be before the release was instructed/);
    // Nobody's session reports a payment, an admin's (with or without a second factor) included: only the custodian.
    for (const person of [owner, investor, verifier, admin]) {
      for (const [path, body] of [
        ["settle", { reference: "PHONE-CONFIRMED" }],
        ["fail", { reason: "Bank rejected the transfer." }],
      ] as const) {
        const res = await t.request("POST", `/api/releases/${release.id}/${path}`, { as: person, body });
        expect(res.status).toBe(403);
      }
    }
    const [row] = await t.deps.db.select().from(disbursements).where(eq(disbursements.id, release.id));
    expect(row).toMatchObject({ status: "instructed", settlementReference: null, failureReason: null });
  });
});

describe("fail, re-instruct, cancel", () => {
  it("fail → re-instruct (new instruction id, same release) → settle", async () => {
    const { release, milestone } = await approved();
    const failed = await fail(release.id, { reason: "Beneficiary account closed." });
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ status: "failed", failure: { reason: "Beneficiary account closed." } });
    // Admins are told, since a failed release waits on one of them; owners and investors too.
    const notes = await t.deps.db
      .select({ userId: notifications.userId })
      .from(notifications)
      .where(eq(notifications.title, "Capital release failed"));
    expect(notes.map((n) => n.userId)).toEqual(expect.arrayContaining([owner.id, investor.id, admin.id]));

    // A failed release cannot be settled or failed again; re-instruct belongs to admins, not tokens.
    expect((await settle(release.id, { reference: "LATE" })).status).toBe(409);
    expect((await fail(release.id, { reason: "again" })).status).toBe(409);
    const byToken = await t.request("POST", `/api/releases/${release.id}/reinstruct`, { headers: bearer(custodian) });
    expect(byToken.status).toBe(403);
    const byOwner = await t.request("POST", `/api/releases/${release.id}/reinstruct`, { as: owner });
    expect(byOwner.status).toBe(403);

    const again = await t.request("POST", `/api/releases/${release.id}/reinstruct`, { as: admin });
    expect(again.status).toBe(200);
    expect(again.body.status).toBe("instructed");
    expect(again.body.id).toBe(release.id);
    expect(again.body.instructionId).not.toBe(release.instructionId);
    const rows = await t.deps.db.select().from(disbursements).where(eq(disbursements.milestoneId, milestone.id));
    expect(rows).toHaveLength(1);
    const instructed = await eventsFor("release.instructed", (d) => d.releaseId === release.id);
    expect(instructed.map((e) => e.data.instructionId)).toEqual([release.instructionId, again.body.instructionId]);
    expect((await t.request("POST", `/api/releases/${release.id}/reinstruct`, { as: admin })).status).toBe(409);

    // A late report of the first instruction is not taken for the second's: refused, and nothing changes.
    const stale = { instructionId: release.instructionId };
    const lateFailure = await fail(release.id, { ...stale, reason: "Beneficiary account closed." });
    expect(lateFailure.status).toBe(409);
    expect(lateFailure.body.error.message).toBe(
      `Instruction ${release.instructionId} is no longer this release's: it was re-instructed as ${again.body.instructionId}.`,
    );
    expect((await settle(release.id, { ...stale, reference: "WIRE-1" })).status).toBe(409);
    // An instruction that was never this release's (another release's, a typo) is refused as such.
    const foreign = randomUUID();
    expect((await settle(release.id, { instructionId: foreign, reference: "WIRE-1" })).body.error.message).toBe(
      `Instruction ${foreign} is not one of this release's; its instruction is ${again.body.instructionId}.`,
    );
    const [unchanged] = await t.deps.db.select().from(disbursements).where(eq(disbursements.id, release.id));
    expect(unchanged).toMatchObject({ status: "instructed", settlementReference: null });
    expect((await settle(release.id, { instructionId: "not-an-id", reference: "WIRE-2" })).body.error.details).toEqual({
      instructionId: "instructionId must be the instructionId of the release.instructed event being answered.",
    });

    expect((await settle(release.id, { instructionId: again.body.instructionId, reference: "WIRE-2" })).status).toBe(
      200,
    );
    const actions = (
      await t.deps.db
        .select({ action: auditEvents.action })
        .from(auditEvents)
        .where(eq(auditEvents.entityId, release.id))
        .orderBy(asc(auditEvents.id))
    ).map((r) => r.action);
    expect(actions).toEqual(["certificate.issued", "release.failed", "release.reinstructed", "release.settled"]);
  });

  it("takes an instructionId in capitals for the same instruction (a uuid has no letter case)", async () => {
    const { release } = await approved();
    const upper = (id: string) => id.toUpperCase();
    const failed = await fail(release.id, { instructionId: upper(release.instructionId), reason: "Account closed." });
    expect(failed.status).toBe(200);
    const again = await t.request("POST", `/api/releases/${release.id}/reinstruct`, { as: admin });
    expect(again.status).toBe(200);
    // A late answer to the first, in capitals, is still told apart from the second's.
    const late = await settle(release.id, { instructionId: upper(release.instructionId), reference: "WIRE-LATE" });
    expect(late.status).toBe(409);
    expect(late.body.error.message).toBe(
      `Instruction ${release.instructionId} is no longer this release's: it was re-instructed as ${again.body.instructionId}.`,
    );
    const paid = await settle(release.id, { instructionId: upper(again.body.instructionId), reference: "WIRE-OK" });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: "settled", instructionId: again.body.instructionId });
  });

  it("re-instructs to the beneficiary the release was made for, whatever their profile or the project's owner says now", async () => {
    const payee = await t.user("project_owner", { name: "Paula Payee", organization: "Payee Works" });
    const successor = await t.user("project_owner", { name: "Sam Successor", organization: "Successor Ltd" });
    const project = await makeProject(t, { owner: payee, verifiers: [verifier], totalCapital: 1_000_000 });
    const milestone = await makeMilestone(t, project, { status: "in_verification", verifier });
    expect(
      (await t.request("POST", `/api/milestones/${milestone.id}/approve`, { as: verifier, body: {} })).status,
    ).toBe(200);
    const [release] = await t.deps.db.select().from(disbursements).where(eq(disbursements.milestoneId, milestone.id));
    const fixed = { id: payee.id, name: "Paula Payee", organization: "Payee Works" };
    expect((await fail(release.id, { reason: "Beneficiary account closed." })).status).toBe(200);
    // Between the failure and the re-instruction the payee renames their organization and the project changes hands.
    const renamed = await t.request("PATCH", "/api/me/profile", {
      as: payee,
      body: { name: "Paula Payee", organization: "Offshore Holdings Ltd" },
    });
    expect(renamed.status).toBe(200);
    const moved = await t.request("POST", `/api/projects/${project.id}/owner`, {
      as: admin,
      body: { userId: successor.id },
    });
    expect(moved.status).toBe(200);
    expect((await t.request("POST", `/api/releases/${release.id}/reinstruct`, { as: admin })).status).toBe(200);
    const instructed = await eventsFor("release.instructed", (d) => d.releaseId === release.id);
    expect(instructed.map((e) => e.data.beneficiary)).toEqual([fixed, fixed]);
    // Nobody rewrites it afterwards, not even past the application.
    await expect(
      t.deps.db
        .update(disbursements)
        .set({ beneficiary: { userId: successor.id, name: "Sam Successor", organization: null } })
        .where(eq(disbursements.id, release.id)),
    ).rejects.toMatchObject({ cause: { code: "TR409" } });
  });

  it("cancel: only a failed release, by an admin with a reason; not counted as released; milestone stays verified", async () => {
    const { release, milestone, project } = await approved(400_000);
    const before = await t.request("GET", `/api/projects/${project.id}`, { as: owner });
    expect(before.body.disbursedCapital).toBe(400_000);
    expect(
      (await t.request("POST", `/api/releases/${release.id}/cancel`, { as: admin, body: { reason: "x" } })).status,
    ).toBe(409);
    await fail(release.id, { reason: "Sanctions screening hit." });
    const noReason = await t.request("POST", `/api/releases/${release.id}/cancel`, { as: admin, body: {} });
    expect(noReason.status).toBe(400);
    expect(noReason.body.error.details.reason).toBeDefined();
    const cancelled = await t.request("POST", `/api/releases/${release.id}/cancel`, {
      as: admin,
      body: { reason: "Project restructured; capital returned to the fund." },
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      status: "cancelled",
      cancellation: { reason: "Project restructured; capital returned to the fund." },
    });
    const after = await t.request("GET", `/api/projects/${project.id}`, { as: owner });
    expect(after.body.disbursedCapital).toBe(0);
    expect(after.body.settledCapital).toBe(0);
    const [m] = await t.deps.db.select().from(milestones).where(eq(milestones.id, milestone.id));
    expect(m.status).toBe("verified");
    expect((await t.request("POST", `/api/releases/${release.id}/reinstruct`, { as: admin })).status).toBe(409);
    expect((await settle(release.id, { reference: "LATE" })).status).toBe(409);
    const [event] = await eventsFor("release.cancelled", (d) => d.releaseId === release.id);
    expect(event.data.cancellation).toEqual({ reason: "Project restructured; capital returned to the fund." });
  });
});

describe("figures: released and settled apart", () => {
  it("project, dashboards and milestone detail say which they mean", async () => {
    const investorB = await t.user("investor");
    const ownerB = await t.user("project_owner");
    const project = await makeProject(t, {
      owner: ownerB,
      investors: [investorB],
      verifiers: [verifier],
      totalCapital: 1_000_000,
    });
    const ids: string[] = [];
    for (const amount of [100_000, 200_000, 300_000]) {
      const m = await makeMilestone(t, project, { status: "in_verification", verifier, capitalAmount: amount });
      expect((await t.request("POST", `/api/milestones/${m.id}/approve`, { as: verifier, body: {} })).status).toBe(200);
      const [r] = await t.deps.db.select().from(disbursements).where(eq(disbursements.milestoneId, m.id));
      ids.push(r.id);
    }
    await settle(ids[0], { reference: "S-1" });
    await fail(ids[2], { reason: "Bank holiday cut-off." });

    const detail = await t.request("GET", `/api/projects/${project.id}`, { as: ownerB });
    expect(detail.body).toMatchObject({
      disbursedCapital: 300_000,
      settledCapital: 100_000,
      remainingCapital: 700_000,
    });
    const ownerDash = await t.request("GET", "/api/dashboard", { as: ownerB });
    expect(ownerDash.body.role.released).toEqual([{ currency: "USD", amount: 300_000 }]);
    expect(ownerDash.body.role.settled).toEqual([{ currency: "USD", amount: 100_000 }]);
    expect(ownerDash.body.role.projects[0]).toMatchObject({ disbursedCapital: 300_000, settledCapital: 100_000 });
    const investorDash = await t.request("GET", "/api/dashboard", { as: investorB });
    expect(investorDash.body.role.verifiedDisbursements).toEqual([
      { currency: "USD", amount: 300_000, settled: 100_000, percentOfCommitted: 30 },
    ]);
  });
});

describe("GET /api/releases", () => {
  it("pages with a cursor, filters by status and project, and shows each caller only what they may see", async () => {
    const ownerC = await t.user("project_owner");
    const investorC = await t.user("investor");
    const project = await makeProject(t, { owner: ownerC, investors: [investorC], verifiers: [verifier] });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const m = await makeMilestone(t, project, { status: "in_verification", verifier, capitalAmount: 1000 + i });
      await t.request("POST", `/api/milestones/${m.id}/approve`, { as: verifier, body: {} });
      const [r] = await t.deps.db.select().from(disbursements).where(eq(disbursements.milestoneId, m.id));
      ids.push(r.id);
    }
    await settle(ids[1], { reference: "P-1" });

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = `/api/releases?projectId=${project.id}&limit=2${cursor ? `&cursor=${cursor}` : ""}`;
      const page = await t.request("GET", q, { headers: bearer(custodian) });
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items.map((r: { id: string }) => r.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());

    const settled = await t.request("GET", `/api/releases?projectId=${project.id}&status=settled`, { as: ownerC });
    expect(settled.body.items.map((r: { id: string }) => r.id)).toEqual([ids[1]]);
    const asInvestor = await t.request("GET", `/api/releases?projectId=${project.id}`, { as: investorC });
    expect(asInvestor.body.items).toHaveLength(5);
    expect(asInvestor.body.items[0].permissions).toEqual({ canReinstruct: false, canCancel: false });
    const asOutsider = await t.request("GET", `/api/releases?projectId=${project.id}`, { as: outsider });
    expect(asOutsider.body.items).toHaveLength(0);
    expect((await t.request("GET", `/api/releases/${ids[0]}`, { as: outsider })).status).toBe(404);
    expect((await t.request("GET", `/api/releases/${ids[0]}`, { as: investorC })).status).toBe(200);
    expect((await t.request("GET", "/api/releases?limit=101", { as: admin })).status).toBe(400);
    expect((await t.request("GET", "/api/releases?status=paid", { as: admin })).status).toBe(400);
    expect((await t.request("GET", "/api/releases?cursor=nope", { as: admin })).status).toBe(400);
    const defaults = await t.request("GET", "/api/releases", { as: admin });
    expect(defaults.body.items.length).toBeLessThanOrEqual(25);
  });
});

describe("API tokens", () => {
  it("is shown once, stored hashed, listed with last use, and revoked to 401", async () => {
    const created = await t.request("POST", "/api/api-tokens", {
      as: admin,
      body: { name: "Reporting", scopes: ["projects:read"] },
    });
    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(/^trk_[\w-]{43}$/);
    const listed = await t.request("GET", "/api/api-tokens", { as: admin });
    const row = listed.body.items.find((k: { id: string }) => k.id === created.body.id);
    expect(row).toMatchObject({ name: "Reporting", scopes: ["projects:read"], lastUsedAt: null, revokedAt: null });
    expect(JSON.stringify(listed.body)).not.toContain(created.body.token);

    const use = await t.request("GET", "/api/projects", { headers: bearer(created.body.token) });
    expect(use.status).toBe(200);
    const afterUse = await t.request("GET", "/api/api-tokens", { as: admin });
    expect(afterUse.body.items.find((k: { id: string }) => k.id === created.body.id).lastUsedAt).not.toBeNull();

    expect((await t.request("DELETE", `/api/api-tokens/${created.body.id}`, { as: owner })).status).toBe(403);
    expect((await t.request("DELETE", `/api/api-tokens/${created.body.id}`, { as: admin })).status).toBe(204);
    const revoked = await t.request("GET", "/api/projects", { headers: bearer(created.body.token) });
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.code).toBe("unauthenticated");
    const audit = await t.deps.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.entityId, created.body.id))
      .orderBy(asc(auditEvents.id));
    expect(audit.map((a) => a.action)).toEqual(["api_token.created", "api_token.revoked"]);
  });

  it("works on the routes its scopes allow and no others (403 naming the missing scope); unknown → 401", async () => {
    const { release } = await approved();
    const readOnly = await token(["releases:read"], "Read only");
    const projectsOnly = await token(["projects:read"], "Projects only");
    expect((await t.request("GET", `/api/releases/${release.id}`, { headers: bearer(readOnly) })).status).toBe(200);
    const write = await settle(release.id, { reference: "NOPE" }, readOnly);
    expect(write.status).toBe(403);
    expect(write.body.error.message).toContain("releases:write");
    const read = await t.request("GET", "/api/releases", { headers: bearer(projectsOnly) });
    expect(read.status).toBe(403);
    expect(read.body.error.message).toContain("releases:read");
    const projects = await t.request("GET", "/api/projects", { headers: bearer(projectsOnly) });
    expect(projects.status).toBe(200);
    expect(projects.body.items.length).toBeGreaterThan(0);
    const oneProject = await t.request("GET", `/api/projects/${release.projectId}`, { headers: bearer(projectsOnly) });
    expect(oneProject.status).toBe(200);
    // A token may read a project, and change nothing on it.
    expect(oneProject.body.permissions).toMatchObject({
      canEdit: false,
      canDelete: false,
      canManageMilestones: false,
      canAssign: false,
    });
    // Everything else refuses a token, even one with every scope.
    for (const [method, path] of [
      ["GET", "/api/me"],
      ["GET", "/api/dashboard"],
      ["GET", "/api/api-tokens"],
      ["POST", "/api/projects"],
      ["GET", "/api/users"],
    ]) {
      const res = await t.request(method, path, {
        headers: bearer(custodian),
        body: method === "POST" ? {} : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    for (const bad of ["trk_unknown", "not a token"]) {
      const res = await t.request("GET", "/api/releases", { headers: bearer(bad) });
      expect(res.status).toBe(401);
    }
    expect((await t.request("GET", "/api/releases", { headers: { authorization: "Basic abc" } })).status).toBe(401);
    // Another scheme (a proxy's Basic auth) leaves the session cookie in charge.
    const behindProxy = await t.request("GET", "/api/releases", { as: admin, headers: { authorization: "Basic abc" } });
    expect(behindProxy.status).toBe(200);
    const noScopes = await t.request("POST", "/api/api-tokens", { as: admin, body: { name: "x", scopes: [] } });
    expect(noScopes.status).toBe(400);
    expect(noScopes.body.error.details.scopes).toBeDefined();
    const unknownScope = await t.request("POST", "/api/api-tokens", {
      as: admin,
      body: { name: "x", scopes: ["admin"] },
    });
    expect(unknownScope.status).toBe(400);
    const byOwner = await t.request("POST", "/api/api-tokens", {
      as: owner,
      body: { name: "x", scopes: ["projects:read"] },
    });
    expect(byOwner.status).toBe(403);
  });

  it.runIf(usePostgres)(
    "revoked while its settlement waits for the release: the settlement is refused with 401 and changes nothing",
    async () => {
      const { release } = await approved();
      const created = await t.request("POST", "/api/api-tokens", {
        as: admin,
        body: { name: "Leaked", scopes: ["releases:write"] },
      });
      // Another transaction holds the release, so the settlement is past its token check and waits for the row.
      let unlock!: () => void;
      let locked!: () => void;
      const held = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const holder = t.deps.db.transaction(async (tx) => {
        await tx.select().from(disbursements).where(eq(disbursements.id, release.id)).for("update");
        locked();
        await new Promise<void>((resolve) => {
          unlock = resolve;
        });
      });
      await held;
      const settling = settle(release.id, { reference: "WIRE-AFTER-REVOKE" }, created.body.token);
      for (let waiting = 0; waiting === 0; ) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        const [row] = await queryRows<{ n: number }>(
          t.deps.db,
          sql`select count(*)::int as n from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'`,
        );
        waiting = row.n;
      }
      // The admin revokes the token meanwhile: that answers at once, and from then on the token does nothing.
      expect((await t.request("DELETE", `/api/api-tokens/${created.body.id}`, { as: admin })).status).toBe(204);
      unlock();
      await holder;
      const res = await settling;
      expect(res.status).toBe(401);
      const [after] = await t.deps.db.select().from(disbursements).where(eq(disbursements.id, release.id));
      expect(after).toMatchObject({ status: "instructed", settlementReference: null });
      const settled = await t.deps.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.entityId, release.id), eq(auditEvents.action, "release.settled")));
      expect(settled).toEqual([]);
    },
  );

  it("is rate-limited per token", async () => {
    const limited = await createTestApp({ API_TOKEN_LIMIT_PER_MINUTE: 5 });
    try {
      const boss = await limited.user("admin");
      const make = async () =>
        (await limited.request("POST", "/api/api-tokens", { as: boss, body: { name: "t", scopes: ["releases:read"] } }))
          .body.token as string;
      const [first, second] = [await make(), await make()];
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        statuses.push((await limited.request("GET", "/api/releases", { headers: bearer(first) })).status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
      const over = await limited.request("GET", "/api/releases", { headers: bearer(first) });
      expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
      // Another token has its own budget.
      expect((await limited.request("GET", "/api/releases", { headers: bearer(second) })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
