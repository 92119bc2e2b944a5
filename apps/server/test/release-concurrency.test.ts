// Release exactly once: many approvals of one milestone at the same moment (some retries carrying the same
// Idempotency-Key) leave one disbursement and one approve event; every other answer is 409 or the replay.
import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, disbursements, milestones, projects } from "../src/db/schema";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

const CONCURRENT = 60;

let t: TestApp;
let owner: TestUser;
let verifier: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  owner = await t.user("project_owner");
  verifier = await t.user("verifier");
});
afterAll(() => t.close());

async function counts(milestoneId: string) {
  const [{ releases }] = await t.deps.db
    .select({ releases: count() })
    .from(disbursements)
    .where(eq(disbursements.milestoneId, milestoneId));
  const [{ approvals }] = await t.deps.db
    .select({ approvals: count() })
    .from(auditEvents)
    .where(and(eq(auditEvents.entityId, milestoneId), eq(auditEvents.action, "milestone.approved")));
  return { releases, approvals };
}

describe("concurrent approvals of one milestone", () => {
  it(`releases once out of ${CONCURRENT} simultaneous approvals`, async () => {
    const project = await makeProject(t, { owner, verifiers: [verifier], totalCapital: 500_000 });
    const milestone = await makeMilestone(t, project, {
      status: "in_verification",
      verifier,
      capitalAmount: 125_000,
    });
    const sharedKey = `retry-${milestone.id}`;
    const responses = await Promise.all(
      Array.from({ length: CONCURRENT }, (_, i) =>
        t.request("POST", `/api/milestones/${milestone.id}/approve`, {
          as: verifier,
          body: { comments: "Approved under load." },
          // A third retry with one key, a third with keys of their own, a third with none.
          headers: i % 3 === 0 ? { "Idempotency-Key": sharedKey } : i % 3 === 1 ? { "Idempotency-Key": `k-${i}` } : {},
        }),
      ),
    );

    const statuses = responses.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    const originals = responses.filter((r) => r.status === 200 && r.headers.get("idempotent-replayed") !== "true");
    expect(originals).toHaveLength(1);
    const replays = responses.filter((r) => r.headers.get("idempotent-replayed") === "true");
    for (const replay of replays) {
      expect(replay.status).toBe(200);
      expect(replay.body).toEqual(originals[0].body);
    }
    for (const refused of responses.filter((r) => r.status === 409)) {
      expect(refused.body.error.message).toBe("Milestone is verified; it cannot be approved.");
    }
    expect(originals.length + replays.length + statuses.filter((s) => s === 409).length).toBe(CONCURRENT);

    expect(await counts(milestone.id)).toEqual({ releases: 1, approvals: 1 });
    const [row] = await t.deps.db.select().from(milestones).where(eq(milestones.id, milestone.id));
    expect(row.status).toBe("verified");
    const [p] = await t.deps.db.select({ status: projects.status }).from(projects).where(eq(projects.id, project.id));
    expect(p.status).toBe("verified");
  });

  it("releases once when every request carries the same Idempotency-Key, all answered alike", async () => {
    const project = await makeProject(t, { owner, verifiers: [verifier], totalCapital: 500_000 });
    const milestone = await makeMilestone(t, project, { status: "in_verification", verifier, capitalAmount: 500_000 });
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        t.request("POST", `/api/milestones/${milestone.id}/approve`, {
          as: verifier,
          body: {},
          headers: { "Idempotency-Key": "one-key" },
        }),
      ),
    );
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(responses.filter((r) => r.headers.get("idempotent-replayed") !== "true")).toHaveLength(1);
    // Same content (jsonb may order keys differently from the first answer's JSON text).
    for (const r of responses) expect(r.body).toEqual(responses[0].body);
    expect(await counts(milestone.id)).toEqual({ releases: 1, approvals: 1 });
    // The whole capital is now released: the project is funded.
    const [p] = await t.deps.db.select({ status: projects.status }).from(projects).where(eq(projects.id, project.id));
    expect(p.status).toBe("funded");
  });
});
