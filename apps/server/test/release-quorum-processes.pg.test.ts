// The approval that completes a 2-of-2 release policy releases once, even when two verifiers send 50 final
// approvals at the same moment through two server processes sharing one PostgreSQL database.
// Runs only in the PostgreSQL suite (see vitest.config.ts: *.pg.test.ts).
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, disbursements, milestones, releasePolicies } from "../src/db/schema";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";
import { type ServerProcess, startServerProcess, stopServerProcess } from "./server-process";

const REQUESTS = 50;

let t: TestApp;
let procs: ServerProcess[] = [];
let owner: TestUser;
let verifiers: TestUser[];

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.user("project_owner");
  verifiers = await Promise.all([t.user("verifier"), t.user("verifier")]);
  const url = t.deps.env.DATABASE_URL as string;
  procs = await Promise.all([startServerProcess(url), startServerProcess(url)]);
}, 120_000);
afterAll(async () => {
  await Promise.all(procs.map((p) => stopServerProcess(p, "SIGKILL")));
  await t?.close();
});

describe("final approvals across two server processes", () => {
  it(`releases once out of ${REQUESTS} simultaneous approvals from two verifiers`, async () => {
    const project = await makeProject(t, { owner, verifiers, totalCapital: 900_000 });
    await t.deps.db.insert(releasePolicies).values({ projectId: project.id, version: 1, requiredApprovals: 2 });
    const milestone = await makeMilestone(t, project, {
      status: "in_verification",
      verifier: verifiers[0],
      capitalAmount: 300_000,
    });
    const responses = await Promise.all(
      Array.from({ length: REQUESTS }, async (_, i) => {
        const res = await fetch(`${procs[i % 2].url}/api/milestones/${milestone.id}/approve`, {
          method: "POST",
          headers: { cookie: verifiers[Math.floor(i / 2) % 2].cookie, "content-type": "application/json" },
          body: JSON.stringify({ comments: `Approval ${i}` }),
        });
        return { status: res.status, body: (await res.json()) as { status?: string } };
      }),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    // One approval each counted; the second of them completed the rule.
    expect(statuses.filter((s) => s === 200)).toHaveLength(2);
    expect(responses.filter((r) => r.body.status === "verified")).toHaveLength(1);

    const [{ releases }] = await t.deps.db
      .select({ releases: count() })
      .from(disbursements)
      .where(eq(disbursements.milestoneId, milestone.id));
    expect(releases).toBe(1);
    const approvals = await t.deps.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.entityId, milestone.id));
    expect(approvals.map((a) => a.action).sort()).toEqual(["milestone.approval_recorded", "milestone.approved"]);
    const [row] = await t.deps.db.select().from(milestones).where(eq(milestones.id, milestone.id));
    expect(row.status).toBe("verified");
    const [release] = await t.deps.db.select().from(disbursements).where(eq(disbursements.milestoneId, milestone.id));
    expect(release).toMatchObject({ amount: "300000.00", policyVersion: 1 });
  }, 120_000);
});
