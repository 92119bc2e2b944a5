// Per-project rollups (issue 11): random sequences of real API operations on a project — milestones created,
// edited, deleted, verified, rejected, delayed; releases settled, failed, re-instructed, cancelled; the project's
// capital changed — and after each sequence the stored rollup equals a recomputation written here from the raw
// rows, and `rollups verify` (findRollupDifferences) finds nothing; nor in the platform totals the database keeps
// from the rollups (findPlatformRollupDifferences).
import { eq, max, sql } from "drizzle-orm";
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../src/db/client";
import {
  auditEvents,
  disbursements,
  milestones,
  platformRollupDeltas,
  platformRollups,
  projectMembers,
  projectRollups,
  projects,
} from "../src/db/schema";
import { AUDIT_LOCK } from "../src/services/audit/lock";
import { createTotalsCompactor } from "../src/services/housekeeping";
import {
  compactPlatformRollups,
  findPlatformRollupDifferences,
  findReleasesInAnotherCurrency,
  findRollupDifferences,
  ROLLUP_COLUMNS,
  rebuildAllRollups,
} from "../src/services/projects/rollup";
import { daysFromNow, makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser, usePostgres } from "./harness";

let t: TestApp;
let admin: TestUser;
let owner: TestUser;
let verifier: TestUser;
let secondVerifier: TestUser;
let custodian: string;

beforeAll(async () => {
  t = await createTestApp({ API_TOKEN_LIMIT_PER_MINUTE: 100_000 });
  [admin, owner, verifier, secondVerifier] = await Promise.all([
    t.user("admin"),
    t.user("project_owner"),
    t.user("verifier"),
    t.user("verifier"),
  ]);
  const res = await t.request("POST", "/api/api-tokens", {
    as: admin,
    body: { name: "Custodian", scopes: ["releases:read", "releases:write"] },
  });
  custodian = res.body.token;
});
afterAll(() => t.close());

type Op =
  | { kind: "create"; amount: number; dueInDays: number }
  | { kind: "edit"; pick: number; amount: number; dueInDays: number }
  | { kind: "remove" | "start" | "approve" | "reject" | "resubmit" | "delay"; pick: number }
  | { kind: "settle" | "fail" | "reinstruct" | "cancel"; pick: number }
  | { kind: "capital"; total: number }
  | { kind: "verifier"; add: boolean };

const pick = fc.nat(20);
const amount = fc.integer({ min: 1, max: 90_000 });
const due = fc.integer({ min: -40, max: 90 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant("create" as const), amount, dueInDays: due }), weight: 4 },
  fc.record({ kind: fc.constant("edit" as const), pick, amount, dueInDays: due }),
  fc.record({
    kind: fc.constantFrom("remove" as const, "start" as const, "approve" as const, "reject" as const),
    pick,
  }),
  fc.record({ kind: fc.constantFrom("resubmit" as const, "delay" as const), pick }),
  fc.record({
    kind: fc.constantFrom("settle" as const, "fail" as const, "reinstruct" as const, "cancel" as const),
    pick,
  }),
  fc.record({ kind: fc.constant("capital" as const), total: fc.integer({ min: 100_000, max: 2_000_000 }) }),
  fc.record({ kind: fc.constant("verifier" as const), add: fc.boolean() }),
);

/** Runs one operation through the API; refusals (400/409/422) are part of the game and must change nothing. */
async function run(projectId: string, o: Op): Promise<number> {
  const ms = await t.deps.db
    .select({ id: milestones.id })
    .from(milestones)
    .where(eq(milestones.projectId, projectId))
    .orderBy(milestones.createdAt, milestones.id);
  const releases = await t.deps.db
    .select({ id: disbursements.id })
    .from(disbursements)
    .where(eq(disbursements.projectId, projectId))
    .orderBy(disbursements.releasedAt, disbursements.id);
  const milestone = (n: number) => ms[n % Math.max(ms.length, 1)]?.id;
  const release = (n: number) => releases[n % Math.max(releases.length, 1)]?.id;
  const token = { authorization: `Bearer ${custodian}` };
  switch (o.kind) {
    case "create":
      return (
        await t.request("POST", `/api/projects/${projectId}/milestones`, {
          as: owner,
          body: {
            title: "Generated milestone",
            description: "Made by the rollup property test.",
            dueDate: daysFromNow(o.dueInDays),
            capitalAmount: o.amount,
          },
        })
      ).status;
    case "verifier":
      // A second verifier joins or leaves the team (the first stays): the rollup counts the team's verifiers.
      return o.add
        ? (
            await t.request("POST", `/api/projects/${projectId}/members`, {
              as: admin,
              body: { userId: secondVerifier.id, role: "verifier" },
            })
          ).status
        : (
            await t.request("DELETE", `/api/projects/${projectId}/members/${secondVerifier.id}?role=verifier`, {
              as: admin,
            })
          ).status;
    case "capital":
      return (await t.request("PATCH", `/api/projects/${projectId}`, { as: owner, body: { totalCapital: o.total } }))
        .status;
    case "edit": {
      const id = milestone(o.pick);
      if (!id) return 0;
      const body = { capitalAmount: o.amount, dueDate: daysFromNow(o.dueInDays) };
      return (await t.request("PATCH", `/api/milestones/${id}`, { as: owner, body })).status;
    }
    case "remove": {
      const id = milestone(o.pick);
      return id ? (await t.request("DELETE", `/api/milestones/${id}`, { as: owner })).status : 0;
    }
    case "start":
    case "approve":
    case "reject":
    case "resubmit":
    case "delay": {
      const id = milestone(o.pick);
      if (!id) return 0;
      const as = o.kind === "resubmit" || o.kind === "delay" ? owner : verifier;
      const body = o.kind === "reject" ? { comments: "Evidence incomplete." } : undefined;
      return (await t.request("POST", `/api/milestones/${id}/${o.kind}`, { as, body })).status;
    }
    default: {
      const id = release(o.pick);
      if (!id) return 0;
      const path = `/api/releases/${id}/${o.kind}`;
      if (o.kind === "settle")
        return (await t.request("POST", path, { headers: token, body: { reference: `PAY-${o.pick}` } })).status;
      if (o.kind === "fail")
        return (await t.request("POST", path, { headers: token, body: { reason: "Account closed." } })).status;
      const body = o.kind === "cancel" ? { reason: "Paid outside Tranche." } : undefined;
      return (await t.request("POST", path, { as: admin, body })).status;
    }
  }
}

const cents = (value: string | number) => Math.round(Number(value) * 100);

/** The project's rollup recomputed here, in TypeScript, from its raw rows (independent of the SQL view). */
async function recompute(projectId: string) {
  const [project] = await t.deps.db.select().from(projects).where(eq(projects.id, projectId));
  const ms = await t.deps.db.select().from(milestones).where(eq(milestones.projectId, projectId));
  const rs = await t.deps.db.select().from(disbursements).where(eq(disbursements.projectId, projectId));
  const [audit] = await t.deps.db
    .select({ at: max(auditEvents.createdAt) })
    .from(auditEvents)
    .where(eq(auditEvents.projectId, projectId));
  const count = (status: string) => ms.filter((m) => m.status === status).length;
  const sum = (values: (string | number)[]) => values.reduce<number>((n, v) => n + cents(v), 0);
  const open = ms.filter((m) => m.status !== "verified").map((m) => m.dueDate);
  const awaiting = ms.filter((m) => m.status === "pending" || m.status === "in_verification").map((m) => m.dueDate);
  const lastActivity = Math.max(project.createdAt.getTime(), audit?.at ? new Date(audit.at).getTime() : 0);
  const team = await t.deps.db.select().from(projectMembers).where(eq(projectMembers.projectId, projectId));
  return {
    currency: project.currency,
    released: sum(rs.filter((r) => r.status === "instructed" || r.status === "settled").map((r) => r.amount)),
    settled: sum(rs.filter((r) => r.status === "settled").map((r) => r.amount)),
    pendingCapital: sum(
      ms.filter((m) => m.status === "pending" || m.status === "in_verification").map((m) => m.capitalAmount),
    ),
    milestonesTotal: ms.length,
    milestonesPending: count("pending"),
    milestonesInVerification: count("in_verification"),
    milestonesVerified: count("verified"),
    milestonesRejected: count("rejected"),
    milestonesDelayed: count("delayed"),
    nextDueDate: open.length ? open.sort()[0] : null,
    lastActivityAt: lastActivity,
    verifiers: team.filter((m) => m.role === "verifier").length,
    nextOpenDueDate: awaiting.length ? awaiting.sort()[0] : null,
  };
}

async function stored(projectId: string) {
  const [row] = await t.deps.db.select().from(projectRollups).where(eq(projectRollups.projectId, projectId));
  if (!row) return null;
  const { projectId: _, ...figures } = row;
  return {
    ...figures,
    released: cents(row.released),
    settled: cents(row.settled),
    pendingCapital: cents(row.pendingCapital),
    lastActivityAt: row.lastActivityAt.getTime(),
  };
}

describe("project rollups", () => {
  it("equal a recomputation after any sequence of operations, refused ones included", async () => {
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
        const project = await makeProject(t, { owner, verifiers: [verifier], totalCapital: 1_000_000 });
        for (const o of ops) {
          statuses.add(await run(project.id, o));
          expect(await stored(project.id), JSON.stringify(o)).toEqual(await recompute(project.id));
        }
      }),
      { numRuns: 12 },
    );
    // The sequences reached both successes and refusals.
    expect(statuses.has(200) || statuses.has(201)).toBe(true);
    expect([...statuses].some((s) => s >= 400)).toBe(true);
    expect(await findRollupDifferences(t.deps.db)).toEqual([]);
    expect(await findPlatformRollupDifferences(t.deps.db)).toEqual([]);
  });

  it("keep the platform totals equal to the sum of every project's rollup, through deletes and currency changes", async () => {
    const a = await makeProject(t, { owner, verifiers: [verifier], totalCapital: 1_000_000, currency: "EUR" });
    const b = await makeProject(t, { owner, verifiers: [verifier], totalCapital: 2_000_000, currency: "GBP" });
    await makeMilestone(t, a, { capitalAmount: 250_000 });
    await makeMilestone(t, b, { capitalAmount: 125_000.5 });
    await makeMilestone(t, b, { capitalAmount: 40_000, status: "verified", verifier });
    expect(await findPlatformRollupDifferences(t.deps.db)).toEqual([]);
    const [gbp] = await queryRows<Record<string, unknown>>(
      t.deps.db,
      sql`select * from platform_totals where currency = 'GBP'`,
    );
    expect(gbp).toMatchObject({ milestones_pending: expect.any(Number), pending_capital: expect.any(String) });
    // Folded into the base rows, the deltas leave the totals as they were.
    await compactPlatformRollups(t.deps.db);
    expect(await findPlatformRollupDifferences(t.deps.db)).toEqual([]);
    // A project that leaves (its rollup row goes with it) leaves the totals.
    await t.deps.db.delete(projects).where(eq(projects.id, a.id));
    expect(await findPlatformRollupDifferences(t.deps.db)).toEqual([]);
    await compactPlatformRollups(t.deps.db);
    expect(await findPlatformRollupDifferences(t.deps.db)).toEqual([]);
    // A rollup moved to another currency moves its figures with it.
    await t.deps.db.update(projectRollups).set({ currency: "USD" }).where(eq(projectRollups.projectId, b.id));
    expect(await findPlatformRollupDifferences(t.deps.db)).toEqual([]);
    await compactPlatformRollups(t.deps.db);
    expect(await findPlatformRollupDifferences(t.deps.db)).toEqual([]);
    await rebuildAllRollups(t.deps.db);
    expect(await findPlatformRollupDifferences(t.deps.db)).toEqual([]);
  });

  it("append a release's change to the platform totals as a delta, and compaction folds the deltas in unchanged", async () => {
    const project = await makeProject(t, { owner, verifiers: [verifier], totalCapital: 1_000_000, currency: "EUR" });
    const milestone = await makeMilestone(t, project, { status: "in_verification", verifier, capitalAmount: 1_000 });
    await compactPlatformRollups(t.deps.db);
    const base = async () => t.deps.db.select().from(platformRollups).where(eq(platformRollups.currency, "EUR"));
    const before = await base();
    const approved = await t.request("POST", `/api/milestones/${milestone.id}/approve`, { as: verifier, body: {} });
    expect(approved.status).toBe(200);
    // The release did not rewrite its currency's row: it appended what it changed.
    expect(await base()).toEqual(before);
    const deltas = await t.deps.db.select().from(platformRollupDeltas).where(eq(platformRollupDeltas.currency, "EUR"));
    expect(deltas.reduce((sum, d) => sum + Number(d.released), 0)).toBe(1_000);
    expect(await findPlatformRollupDifferences(t.deps.db)).toEqual([]);
    // The periodic compaction each process runs (services/housekeeping.ts).
    expect(await createTotalsCompactor(t.deps).tick()).toBeGreaterThan(0);
    expect(await t.deps.db.select().from(platformRollupDeltas)).toEqual([]);
    const [after] = await base();
    expect(Number(after.released) - Number(before[0].released)).toBe(1_000);
    expect(await findPlatformRollupDifferences(t.deps.db)).toEqual([]);
  });

  it("keep the platform totals equal to the sum of every rollup through concurrent releases and compactions", async () => {
    const project = await makeProject(t, { owner, verifiers: [verifier], totalCapital: 1_000_000, currency: "GBP" });
    const others = await Promise.all(
      [1, 2, 3].map(() => makeProject(t, { owner, verifiers: [verifier], totalCapital: 1_000_000, currency: "GBP" })),
    );
    const open = await Promise.all(
      [project, ...others].flatMap((p) =>
        [100, 200].map((capitalAmount) => makeMilestone(t, p, { status: "in_verification", verifier, capitalAmount })),
      ),
    );
    const answers = await Promise.all([
      ...open.map((m) => t.request("POST", `/api/milestones/${m.id}/approve`, { as: verifier, body: {} })),
      compactPlatformRollups(t.deps.db),
      compactPlatformRollups(t.deps.db),
    ]);
    expect(answers.slice(0, open.length).map((a) => (a as { status: number }).status)).toEqual(open.map(() => 200));
    expect(await findPlatformRollupDifferences(t.deps.db)).toEqual([]);
    await Promise.all([compactPlatformRollups(t.deps.db), compactPlatformRollups(t.deps.db)]);
    expect(await findPlatformRollupDifferences(t.deps.db)).toEqual([]);
  });

  it("`rollups verify` names a project whose rollup was changed behind Tranche's back, and --fix repairs it", async () => {
    const project = await makeProject(t, { owner, verifiers: [verifier] });
    await t.deps.db
      .update(projectRollups)
      .set({ released: "123.45", milestonesPending: 7 })
      .where(eq(projectRollups.projectId, project.id));
    const differences = await findRollupDifferences(t.deps.db);
    expect(differences.map((d) => d.projectId)).toEqual([project.id]);
    expect(differences[0].stored).toMatchObject({ released: 123.45, milestones_pending: 7 });
    expect(differences[0].expected).toMatchObject({ released: 0, milestones_pending: 0 });
    await rebuildAllRollups(t.deps.db);
    expect(await findRollupDifferences(t.deps.db)).toEqual([]);
  });

  it("`rollups verify` names a release in another currency than its project's, which no total counts", async () => {
    const project = await makeProject(t, { owner, verifiers: [verifier] });
    const milestone = await makeMilestone(t, project, { status: "in_verification", verifier, capitalAmount: 1_000 });
    const approved = await t.request("POST", `/api/milestones/${milestone.id}/approve`, { as: verifier, body: {} });
    expect(approved.status).toBe(200);
    const rolledBack = new Error("rolled back");
    // Only with the foreign key of migration 0033 out of the way, as in a database from before it.
    await expect(
      t.deps.db.transaction(async (tx) => {
        await tx.execute(sql`alter table disbursements drop constraint disbursements_project_currency_fkey`);
        await tx.update(disbursements).set({ currency: "GBP" }).where(eq(disbursements.milestoneId, milestone.id));
        const strays = await findReleasesInAnotherCurrency(tx);
        expect(strays).toEqual([
          { releaseId: expect.any(String), projectId: project.id, currency: "GBP", projectCurrency: "USD" },
        ]);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(await findReleasesInAnotherCurrency(t.deps.db)).toEqual([]);
  });

  it("`rollups verify` names platform totals changed behind Tranche's back, and --fix repairs them", async () => {
    await makeProject(t, { owner, verifiers: [verifier], currency: "EUR" });
    await compactPlatformRollups(t.deps.db);
    await t.deps.db.update(platformRollups).set({ released: "1.00" }).where(eq(platformRollups.currency, "EUR"));
    const differences = await findPlatformRollupDifferences(t.deps.db);
    expect(differences.map((d) => d.currency)).toEqual(["EUR"]);
    expect(differences[0].stored).toMatchObject({ released: 1 });
    await rebuildAllRollups(t.deps.db);
    expect(await findPlatformRollupDifferences(t.deps.db)).toEqual([]);
  });

  it.runIf(usePostgres)(
    "are recomputed after the audit lock is granted: a change committed while waiting for it is counted",
    async () => {
      const project = await makeProject(t, { owner, verifiers: [verifier] });
      const milestone = await makeMilestone(t, project, { capitalAmount: 1_000 });
      const connect = async () => {
        const client = new pg.Client({ connectionString: t.deps.env.DATABASE_URL });
        await client.connect();
        return client;
      };
      const [holder, refresher, writer] = await Promise.all([connect(), connect(), connect()]);
      try {
        await holder.query("begin");
        await holder.query("select pg_advisory_xact_lock($1)", [AUDIT_LOCK]);
        // The refresh's transaction has begun (its first statement ran) before it asks for the lock.
        await refresher.query("begin");
        await refresher.query("select 1");
        const refreshed = refresher.query("select refresh_project_rollup($1, $2)", [project.id, AUDIT_LOCK]);
        await new Promise((r) => setTimeout(r, 200));
        // Committed while the refresh waits for the lock (a raw change: nothing of Tranche's refreshes it).
        await writer.query("update milestones set capital_amount = 2500 where id = $1", [milestone.id]);
        await holder.query("commit");
        await refreshed;
        await refresher.query("commit");
        const [row] = await t.deps.db.select().from(projectRollups).where(eq(projectRollups.projectId, project.id));
        expect(row.pendingCapital).toBe("2500.00");
        expect(await findRollupDifferences(t.deps.db, project.id)).toEqual([]);
      } finally {
        await Promise.all([holder.end(), refresher.end(), writer.end()]);
      }
    },
  );

  it("are refreshed by refresh_project_rollup (migration 0030) through every column the table and rollup.ts name", async () => {
    const table = await queryRows<{ name: string }>(
      t.deps.db,
      sql`select column_name as name from information_schema.columns
          where table_name = 'project_rollups' and column_name <> 'project_id' order by ordinal_position`,
    );
    expect(table.map((c) => c.name).sort()).toEqual([...ROLLUP_COLUMNS].sort());
    const [fn] = await queryRows<{ source: string }>(
      t.deps.db,
      sql`select prosrc as source from pg_proc where proname = 'refresh_project_rollup'`,
    );
    const words = (text: string) => text.split(/[^a-z_.]+/).filter(Boolean);
    for (const name of ROLLUP_COLUMNS) {
      // In the insert's columns, the select's and the update's, and as excluded.name.
      expect(words(fn.source).filter((word) => word === name)).toHaveLength(3);
      expect(words(fn.source)).toContain(`excluded.${name}`);
    }
  });
});
