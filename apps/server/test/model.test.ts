// A model-based test of the rules that protect money (docs/domain.md "Integrity"). fast-check plays random
// sequences of every role's actions against the real HTTP app — owners edit, resubmit, dispute, delay and add files;
// verifiers start, approve (whole or a share) and reject; the lead investor and admins change the policy; admins
// change members, roles and verified organizations and assign disputes; investors countersign; a custodian's token
// settles and fails (late, too, naming an instruction since replaced); admins re-instruct and cancel — and after
// every step checks what must always hold:
//   releases never exceed a milestone's amount, nor any approval they name, and are in the project's currency
//   (owners change it too); every release met the policy version it records (count, distinct
//   assigned verifiers, distinct verified organizations, countersignature); no answer is a 5xx; the audit chain
//   verifies; the project's rollup equals a recomputation; every instruction of a release names the beneficiary
//   fixed when it was made, whatever the owner's profile says since; every decision a release names was made on the
//   milestone's evidence as it stood (owners add files mid-round).
// A failure prints the seed and the shrunk sequence of actions (fast-check's report).
import { needsCountersign, type ReleaseRule, requiredApprovalsFor } from "@tranche/domain";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  disbursements,
  milestoneDisputes,
  milestones,
  outbox,
  projectMembers,
  projects,
  releasePolicies,
  users,
  verificationDecisions,
} from "../src/db/schema";
import { toMoney } from "../src/lib/money";
import { GENESIS_HASH } from "../src/services/audit/chain";
import { type ChainPosition, verifyAuditChainFrom } from "../src/services/audit/verify-chain";
import { findPlatformRollupDifferences, findRollupDifferences } from "../src/services/projects/rollup";
import { toRule } from "../src/services/release-policy/rule";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestResponse, type TestUser, usePostgres } from "./harness";

/** Sequences per run and steps per sequence: at least 200 sequences of 30 or more steps on each database. */
const RUNS = Number(process.env.MODEL_RUNS ?? 200);
const MIN_STEPS = 30;
const MAX_STEPS = 34;
const ORGANIZATIONS = ["Northwind Audit", "Meridian Assurance", "Kestrel Engineering"] as const;

let t: TestApp;
/** The audit chain as verified so far: each check reads only the rows appended since. */
const chain: ChainPosition = { lastId: 0, prevHash: GENESIS_HASH };

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface World {
  owner: TestUser;
  lead: TestUser;
  investor: TestUser;
  admin: TestUser;
  verifiers: TestUser[];
  token: string;
  projectId: string;
  milestoneIds: string[];
  /** Releases already checked against their policy (each is checked right after the step that made it). */
  checkedReleases: Set<string>;
}

/** What the commands need to know of the world: which releases exist, to settle, fail, re-instruct or cancel. */
interface Model {
  releaseIds: string[];
}

/** One actor's action; the same checks follow each one. */
class Action implements fc.AsyncCommand<Model, World> {
  constructor(
    readonly label: string,
    readonly act: (w: World, m: Model) => Promise<TestResponse | null>,
  ) {}
  check() {
    return true;
  }
  async run(model: Model, world: World) {
    const res = await this.act(world, model);
    if (res) expect(res.status, `${this.label} answered ${res.status}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
    await checkInvariants(world, model);
  }
  toString() {
    return this.label;
  }
}

const as = (user: TestUser) => ({ as: user });
const pick = <T>(items: readonly T[], i: number) => items[i % items.length];

type Policy = {
  requiredApprovals: number;
  distinctOrganizations: boolean;
  cosignAbove: number | null;
  thresholds: { minAmount: number; approvals: number }[];
};
const policies: fc.Arbitrary<Policy> = fc.record({
  requiredApprovals: fc.integer({ min: 1, max: 3 }),
  distinctOrganizations: fc.boolean(),
  cosignAbove: fc.constantFrom(null, 250_000, 5_000_000),
  thresholds: fc.constantFrom([], [{ minAmount: 800_000, approvals: 3 }]),
});

/** The lead investor changes the policy, mid-round or not. */
const setPolicy: fc.Arbitrary<Action> = policies.map(
  (policy) =>
    new Action(`lead sets policy ${JSON.stringify(policy)}`, (w) =>
      t.request("PUT", `/api/projects/${w.projectId}/release-policy`, { ...as(w.lead), body: policy }),
    ),
);

/** Every action, the verifiers' start and approve weighted up so that sequences reach releases often. */
function actions(): fc.Arbitrary<Action>[] {
  const all = allActions();
  const [start, approveShare, approve] = all;
  const failAndCancel = all.at(-2) as fc.Arbitrary<Action>;
  return [...all, start, start, approve, approve, approveShare, approveShare, setPolicy, failAndCancel];
}

function allActions(): fc.Arbitrary<Action>[] {
  const m = fc.nat({ max: 1 });
  const v = fc.nat({ max: 2 });
  const share = fc.option(
    fc.integer({ min: 100, max: 10_000 }).map((bp) => bp / 100),
    { nil: undefined },
  );
  const reason = fc.constantFrom("Not enough.", "The invoices do not match the works on site.", "Roof still open.");
  const status = fc.constantFrom("pending", "in_verification", "verified", "rejected", "delayed");
  const amount = fc.constantFrom(1, 2.32, 99_999.99, 300_000, 500_000, 1_000_000, 1_500_000);
  const id = (w: World, i: number) => pick(w.milestoneIds, i);
  const verifier = (w: World, i: number) => pick(w.verifiers, i);
  const post = (path: string, user: TestUser, body?: unknown) => t.request("POST", path, { as: user, body });
  return [
    // Verifiers
    fc
      .tuple(v, m)
      .map(
        ([vi, mi]) =>
          new Action(`verifier ${vi} starts m${mi}`, (w) =>
            post(`/api/milestones/${id(w, mi)}/start`, verifier(w, vi)),
          ),
      ),
    fc.tuple(v, m, share).map(
      ([vi, mi, s]) =>
        new Action(`verifier ${vi} approves m${mi}${s === undefined ? "" : ` (${s}%)`}`, (w) =>
          post(`/api/milestones/${id(w, mi)}/approve`, verifier(w, vi), {
            ...(s === undefined ? {} : { share: s, comments: "Part of the works are done." }),
          }),
        ),
    ),
    // A site visit: the verifier starts (or finds it started) and approves in one go.
    fc.tuple(v, m).map(
      ([vi, mi]) =>
        new Action(`verifier ${vi} starts and approves m${mi}`, async (w) => {
          const started = await post(`/api/milestones/${id(w, mi)}/start`, verifier(w, vi));
          expect(started.status).toBeLessThan(500);
          return post(`/api/milestones/${id(w, mi)}/approve`, verifier(w, vi));
        }),
    ),
    fc
      .tuple(v, m, reason)
      .map(
        ([vi, mi, r]) =>
          new Action(`verifier ${vi} rejects m${mi}`, (w) =>
            post(`/api/milestones/${id(w, mi)}/reject`, verifier(w, vi), { comments: r }),
          ),
      ),
    // Owner
    fc
      .tuple(m, status)
      .map(
        ([mi, s]) =>
          new Action(`owner sets m${mi} to ${s}`, (w) =>
            t.request("PATCH", `/api/milestones/${id(w, mi)}`, { ...as(w.owner), body: { status: s } }),
          ),
      ),
    fc
      .tuple(m, amount)
      .map(
        ([mi, a]) =>
          new Action(`owner sets m${mi} amount to ${a}`, (w) =>
            t.request("PATCH", `/api/milestones/${id(w, mi)}`, { ...as(w.owner), body: { capitalAmount: a } }),
          ),
      ),
    m.map((mi) => new Action(`owner resubmits m${mi}`, (w) => post(`/api/milestones/${id(w, mi)}/resubmit`, w.owner))),
    m.map(
      (mi) =>
        new Action(`owner adds a file to m${mi}`, (w) => {
          const files = new FormData();
          files.append("files", new Blob([crypto.randomUUID()], { type: "text/plain" }), "lien-waiver.txt");
          return t.request("POST", `/api/milestones/${id(w, mi)}/evidence`, { ...as(w.owner), raw: files });
        }),
    ),
    m.map((mi) => new Action(`owner delays m${mi}`, (w) => post(`/api/milestones/${id(w, mi)}/delay`, w.owner))),
    m.map(
      (mi) =>
        new Action(`owner disputes m${mi}`, (w) =>
          post(`/api/milestones/${id(w, mi)}/dispute`, w.owner, { statement: "The verifier misread the invoices." }),
        ),
    ),
    fc
      .constantFrom("USD", "EUR", "GBP")
      .map(
        (currency) =>
          new Action(`owner sets the currency to ${currency}`, (w) =>
            t.request("PATCH", `/api/projects/${w.projectId}`, { ...as(w.owner), body: { currency } }),
          ),
      ),
    // Investors
    fc
      .tuple(fc.boolean(), m)
      .map(
        ([lead, mi]) =>
          new Action(`${lead ? "lead" : "investor"} countersigns m${mi}`, (w) =>
            post(`/api/milestones/${id(w, mi)}/countersign`, lead ? w.lead : w.investor),
          ),
      ),
    setPolicy,
    // Admins
    v.map(
      (vi) =>
        new Action(`admin removes verifier ${vi}`, (w) =>
          t.request("DELETE", `/api/projects/${w.projectId}/members/${verifier(w, vi).id}`, as(w.admin)),
        ),
    ),
    v.map(
      (vi) =>
        new Action(`admin assigns verifier ${vi}`, (w) =>
          t.request("POST", `/api/projects/${w.projectId}/members`, {
            ...as(w.admin),
            body: { userId: verifier(w, vi).id, role: "verifier" },
          }),
        ),
    ),
    fc
      .tuple(v, fc.constantFrom("investor", "verifier"))
      .map(
        ([vi, role]) =>
          new Action(`admin makes verifier ${vi} ${role}`, (w) =>
            t.request("PATCH", `/api/users/${verifier(w, vi).id}`, { ...as(w.admin), body: { role } }),
          ),
      ),
    fc.tuple(v, fc.constantFrom(...ORGANIZATIONS)).map(
      ([vi, organization]) =>
        new Action(`admin verifies verifier ${vi} as ${organization}`, (w) =>
          t.request("PATCH", `/api/users/${verifier(w, vi).id}`, {
            ...as(w.admin),
            body: { verifiedOrganization: organization },
          }),
        ),
    ),
    fc.tuple(v, fc.constantFrom(...ORGANIZATIONS)).map(
      ([vi, organization]) =>
        new Action(`verifier ${vi} declares ${organization} on their profile`, (w) =>
          t.request("PATCH", "/api/me/profile", {
            ...as(verifier(w, vi)),
            body: { name: `Verifier ${vi}`, organization, expertise: [] },
          }),
        ),
    ),
    fc
      .tuple(v, m)
      .map(
        ([vi, mi]) =>
          new Action(`admin assigns m${mi}'s dispute to verifier ${vi}`, (w) =>
            post(`/api/milestones/${id(w, mi)}/dispute/assign`, w.admin, { verifierId: verifier(w, vi).id }),
          ),
      ),
    // The custodian's token, and admins after a failure
    fc.tuple(fc.nat(), fc.constantFrom("settle", "fail")).map(
      ([ri, verb]) =>
        new Action(`custodian ${verb}s release ${ri}`, async (w, model) => {
          if (model.releaseIds.length === 0) return null;
          const body = verb === "settle" ? { reference: `WIRE-${ri}` } : { reason: "Beneficiary account closed" };
          return t.request("POST", `/api/releases/${pick(model.releaseIds, ri)}/${verb}`, {
            as: null,
            headers: { authorization: `Bearer ${w.token}` },
            body,
          });
        }),
    ),
    // The owner renames their organization: a release already made keeps naming whom it was made for.
    fc
      .constantFrom("Solar Coop", "Offshore Holdings Ltd")
      .map(
        (organization) =>
          new Action(`owner declares ${organization} on their profile`, (w) =>
            t.request("PATCH", "/api/me/profile", { ...as(w.owner), body: { name: "Olivia Owner", organization } }),
          ),
      ),
    // A custodian's late report of a release's first instruction, named: refused once it was re-instructed.
    fc.tuple(fc.nat(), fc.constantFrom("settle", "fail")).map(
      ([ri, verb]) =>
        new Action(`custodian ${verb}s release ${ri}'s first instruction`, async (w, model) => {
          if (model.releaseIds.length === 0) return null;
          const releaseId = pick(model.releaseIds, ri);
          const [first] = await instructionsOf(releaseId);
          const [before] = await t.deps.db.select().from(disbursements).where(eq(disbursements.id, releaseId));
          const body = verb === "settle" ? { reference: `WIRE-${ri}` } : { reason: "Beneficiary account closed" };
          const res = await t.request("POST", `/api/releases/${releaseId}/${verb}`, {
            as: null,
            headers: { authorization: `Bearer ${w.token}` },
            body: { ...body, instructionId: first.instructionId },
          });
          if (first.instructionId !== before.instructionId) {
            expect(res.status, "a report of a replaced instruction is refused").toBe(409);
            const [after] = await t.deps.db.select().from(disbursements).where(eq(disbursements.id, releaseId));
            expect(after, "a refused report changes nothing").toEqual(before);
          }
          return res;
        }),
    ),
    // A failed part given up at once: what it was is open again on its milestone, maybe while a round waits.
    fc.nat().map(
      (ri) =>
        new Action(`custodian fails and admin cancels release ${ri}`, async (w, model) => {
          if (model.releaseIds.length === 0) return null;
          const release = pick(model.releaseIds, ri);
          const failed = await t.request("POST", `/api/releases/${release}/fail`, {
            as: null,
            headers: { authorization: `Bearer ${w.token}` },
            body: { reason: "Beneficiary account closed" },
          });
          expect(failed.status).toBeLessThan(500);
          return t.request("POST", `/api/releases/${release}/cancel`, {
            ...as(w.admin),
            body: { reason: "The custodian cannot pay this beneficiary." },
          });
        }),
    ),
    fc.tuple(fc.nat(), fc.constantFrom("reinstruct", "cancel")).map(
      ([ri, verb]) =>
        new Action(`admin ${verb}s release ${ri}`, async (w, model) => {
          if (model.releaseIds.length === 0) return null;
          const body = verb === "cancel" ? { reason: "The custodian cannot pay this beneficiary." } : undefined;
          return t.request("POST", `/api/releases/${pick(model.releaseIds, ri)}/${verb}`, { ...as(w.admin), body });
        }),
    ),
  ];
}

/** The data of a release's `release.instructed` events, first first. */
async function instructionsOf(releaseId: string): Promise<{ instructionId: string; beneficiary: unknown }[]> {
  const rows = await t.deps.db
    .select({ payload: outbox.payload })
    .from(outbox)
    .where(and(eq(outbox.topic, "event"), sql`${outbox.payload} -> 'data' ->> 'releaseId' = ${releaseId}`))
    .orderBy(asc(outbox.createdAt));
  return rows
    .map((r) => r.payload as { type: string; data: { instructionId: string; beneficiary: unknown } })
    .filter((e) => e.type === "release.instructed")
    .map((e) => e.data);
}

async function releaseIdsOf(projectId: string): Promise<string[]> {
  const rows = await t.deps.db
    .select({ id: disbursements.id })
    .from(disbursements)
    .where(eq(disbursements.projectId, projectId))
    .orderBy(asc(disbursements.releasedAt), asc(disbursements.id));
  return rows.map((r) => r.id);
}

async function checkInvariants(w: World, model: Model): Promise<void> {
  const db = t.deps.db;
  // Two reads cover both milestones: their amounts, and every release of the project.
  const rows = await db.select().from(milestones).where(inArray(milestones.id, w.milestoneIds));
  const releases = await db
    .select()
    .from(disbursements)
    .where(eq(disbursements.projectId, w.projectId))
    .orderBy(asc(disbursements.releasedAt), asc(disbursements.id));
  model.releaseIds = releases.map((r) => r.id);
  const [project] = await db.select().from(projects).where(eq(projects.id, w.projectId));
  for (const release of releases) {
    expect(release.currency, "a release is in its project's currency").toBe(project.currency);
    // Every instruction of a release names the beneficiary fixed when it was made, the project's owner.
    expect(release.beneficiary?.userId, "a release pays the project's owner").toBe(w.owner.id);
    const named = (await instructionsOf(release.id)).map((i) => i.beneficiary);
    expect(named.length, "a release was instructed").toBeGreaterThan(0);
    for (const beneficiary of named) {
      expect(beneficiary, "each instruction names the same beneficiary").toEqual({
        id: w.owner.id,
        name: release.beneficiary?.name,
        organization: release.beneficiary?.organization,
      });
    }
  }
  for (const milestone of rows) {
    const own = releases.filter((r) => r.milestoneId === milestone.id);
    // Releases never exceed a milestone's amount.
    const releasedCents = own
      .filter((r) => r.status !== "cancelled")
      .reduce((sum, r) => sum + Math.round(toMoney(r.amount) * 100), 0);
    expect(releasedCents, `releases of ${milestone.title}`).toBeLessThanOrEqual(
      Math.round(toMoney(milestone.capitalAmount) * 100),
    );
    // Every new release met the policy version it records, checked right after the step that made it.
    for (const release of own.filter((r) => !w.checkedReleases.has(r.id))) {
      await checkReleaseMetPolicy(w, release, milestone);
      w.checkedReleases.add(release.id);
    }
  }
  await checkAuditChain();
  expect(await findRollupDifferences(db, w.projectId)).toEqual([]);
  expect(await findPlatformRollupDifferences(db)).toEqual([]);
}

async function checkReleaseMetPolicy(
  w: World,
  release: typeof disbursements.$inferSelect,
  milestone: typeof milestones.$inferSelect,
): Promise<void> {
  const db = t.deps.db;
  const capitalAmount = toMoney(milestone.capitalAmount);
  const [policy] = await db
    .select()
    .from(releasePolicies)
    .where(eq(releasePolicies.projectId, w.projectId))
    .orderBy(desc(releasePolicies.version))
    .limit(1);
  const rule: ReleaseRule = toRule(policy);
  expect(release.policyVersion, "the release records the policy in force").toBe(rule.version);
  const decisions = await db
    .select({ d: verificationDecisions, role: users.role })
    .from(verificationDecisions)
    .innerJoin(users, eq(users.id, verificationDecisions.userId))
    .where(inArray(verificationDecisions.id, release.decisionIds.length ? release.decisionIds : [crypto.randomUUID()]));
  expect(decisions.length, "the release names the decisions that made it").toBe(release.decisionIds.length);
  for (const { d } of decisions) {
    expect(d).toMatchObject({ milestoneId: release.milestoneId, round: release.round, voidedAt: null });
    // Made on every file the milestone held when it was released (checked right after the step that released it).
    expect(d.evidenceVersion, "each decision was made on the evidence as it stood").toBe(milestone.evidenceVersion);
  }
  const approvals = decisions.filter(({ d }) => d.kind === "approve");
  for (const { d } of approvals) {
    if (d.amount === null) continue;
    expect(toMoney(release.amount), "no more than an approval it names agreed to").toBeLessThanOrEqual(
      toMoney(d.amount),
    );
  }
  const members = await db.select().from(projectMembers).where(eq(projectMembers.projectId, w.projectId));
  const assignedVerifiers = new Set(members.filter((m) => m.role === "verifier").map((m) => m.userId));
  const [dispute] = await db
    .select()
    .from(milestoneDisputes)
    .where(and(eq(milestoneDisputes.milestoneId, release.milestoneId), eq(milestoneDisputes.round, release.round)));
  const approvers = approvals.map(({ d }) => d.userId);
  expect(new Set(approvers).size, "approvals come from distinct verifiers").toBe(approvers.length);
  for (const { d, role } of approvals) {
    expect(assignedVerifiers.has(d.userId) && role === "verifier", "every approver is an assigned verifier").toBe(true);
  }
  if (dispute?.verifierId) {
    // A disputed rejection is decided by the verifier an admin assigned, alone.
    expect(approvers).toContain(dispute.verifierId);
  } else {
    expect(approvals.length, "enough approvals for the amount").toBeGreaterThanOrEqual(
      requiredApprovalsFor(rule, capitalAmount),
    );
    if (rule.distinctOrganizations) {
      const organizations = approvals.map(({ d }) => d.organization?.trim().toLowerCase());
      expect(organizations.every(Boolean), "every approval names a verified organization").toBe(true);
      expect(new Set(organizations).size, "approvals from distinct verified organizations").toBe(organizations.length);
    }
  }
  if (needsCountersign(rule, toMoney(release.amount))) {
    const countersign = decisions.find(({ d }) => d.kind === "countersign");
    expect(countersign, "an investor countersigned").toBeDefined();
    const investors = members.filter((m) => m.role === "investor").map((m) => m.userId);
    expect(investors).toContain(countersign?.d.userId);
  }
}

/** The chain verifies: each row appended since the last check links to the one before and matches its hash. */
async function checkAuditChain(): Promise<void> {
  const result = await verifyAuditChainFrom(t.deps.db, chain);
  expect(result, "the audit chain verifies").toMatchObject({ ok: true });
}

/** A fresh cast and project for one sequence: two milestones, an amount that stresses cents, a lead investor. */
async function newWorld(policy: Policy | null): Promise<World> {
  const [owner, lead, investor, admin] = await Promise.all([
    t.user("project_owner"),
    t.user("investor"),
    t.user("investor"),
    t.user("admin"),
  ]);
  // Two verifiers share an organization: "distinct organizations" has something to refuse.
  const verifiers = await Promise.all([
    t.user("verifier", { organization: ORGANIZATIONS[0], verifiedOrganization: ORGANIZATIONS[0] }),
    t.user("verifier", { organization: ORGANIZATIONS[0], verifiedOrganization: ORGANIZATIONS[0] }),
    t.user("verifier", { organization: ORGANIZATIONS[1], verifiedOrganization: ORGANIZATIONS[1] }),
  ]);
  const project = await makeProject(t, { owner, investors: [lead, investor], verifiers, totalCapital: 5_000_000 });
  await t.request("PUT", `/api/projects/${project.id}/lead-investor`, { as: admin, body: { userId: lead.id } });
  if (policy) {
    const set = await t.request("PUT", `/api/projects/${project.id}/release-policy`, { as: lead, body: policy });
    expect(set.status).toBe(200);
  }
  const first = await makeMilestone(t, project, { capitalAmount: 1_000_000, title: "Foundations" });
  const second = await makeMilestone(t, project, { capitalAmount: 333_333.33, title: "Structure" });
  const token = await t.request("POST", "/api/api-tokens", {
    as: admin,
    body: { name: "Custodian", scopes: ["releases:read", "releases:write"] },
  });
  expect(token.status).toBe(201);
  return {
    owner,
    lead,
    investor,
    admin,
    verifiers,
    token: token.body.token,
    projectId: project.id,
    milestoneIds: [first.id, second.id],
    checkedReleases: new Set(),
  };
}

describe(`the rules that protect money, played by every role (${usePostgres ? "PostgreSQL" : "PGlite"})`, () => {
  it(`hold after every step of ${RUNS} random sequences of ${MIN_STEPS}+ actions`, { timeout: 1_800_000 }, async () => {
    let sequences = 0;
    let steps = 0;
    let released = 0;
    await fc.assert(
      fc.asyncProperty(
        // Half the projects start under a stored policy, so quorums and countersignatures are met often.
        fc.option(policies, { nil: null }),
        fc
          .commands(actions(), { maxCommands: MAX_STEPS, size: "max" })
          .filter((commands) => [...commands].length >= MIN_STEPS),
        async (policy, commands) => {
          const world = await newWorld(policy);
          const model: Model = { releaseIds: [] };
          await fc.asyncModelRun(() => ({ model, real: world }), commands);
          sequences++;
          steps += [...commands].length;
          released += (await releaseIdsOf(world.projectId)).length;
        },
      ),
      { numRuns: RUNS, endOnFailure: false },
    );
    expect(sequences).toBeGreaterThanOrEqual(RUNS);
    expect(steps / sequences).toBeGreaterThanOrEqual(MIN_STEPS);
    // The sequences reach the rules under test: releases are made, not only refused.
    expect(released).toBeGreaterThan(sequences / 4);
    console.info(`${sequences} sequences, ${steps} steps, ${released} releases`);
  });
});
