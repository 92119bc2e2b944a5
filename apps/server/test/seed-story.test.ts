// Issue 23: the demo data tells one story in every view. People join before their projects and decisions, the
// custodian's token is issued before it answers and was last used at its last answer, each audit event carries
// the time of what it records and the record runs forward in time, and every release follows its approval.
import { asc } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  apiTokens,
  auditEvents,
  disbursements,
  milestones,
  notifications,
  projectMembers,
  projects,
  users,
  verificationDecisions,
} from "../src/db/schema";
import { seedDemoData } from "../src/seed";
import { verifyAuditChain } from "../src/services/audit/verify-chain";
import { createTestApp, type TestApp } from "./harness";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedDemoData(t.deps.db);
});
afterAll(() => t.close());

const ms = (d: Date | null | undefined) => (d ? d.getTime() : Number.NaN);

describe("the demo data", () => {
  it("has everyone join before their projects, decisions and tokens", async () => {
    const db = t.deps.db;
    const people = await db.select().from(users);
    const joined = new Map(people.map((u) => [u.id, ms(u.createdAt)]));
    const now = Date.now();
    for (const u of people) {
      expect(ms(u.createdAt), u.email).toBeLessThan(now - 86_400_000);
      expect(ms(u.emailVerifiedAt), u.email).toBe(ms(u.createdAt));
      if (u.organizationVerifiedAt) expect(ms(u.organizationVerifiedAt)).toBeGreaterThan(ms(u.createdAt));
    }
    const projectRows = await db.select().from(projects);
    const members = await db.select().from(projectMembers);
    const projectCreated = new Map(projectRows.map((p) => [p.id, ms(p.createdAt)]));
    for (const m of members) {
      expect(joined.get(m.userId), "a member joined before the project was created").toBeLessThan(
        projectCreated.get(m.projectId) as number,
      );
    }
    for (const d of await db.select().from(verificationDecisions)) {
      expect(joined.get(d.userId)).toBeLessThan(ms(d.decidedAt));
    }
    for (const n of await db.select().from(notifications)) {
      if (n.category === "welcome") expect(ms(n.createdAt)).toBe(joined.get(n.userId));
    }
    const [token] = await db.select().from(apiTokens);
    expect(joined.get(token.createdBy as string)).toBeLessThan(ms(token.createdAt));
    expect(ms(token.createdAt)).toBeLessThan(ms(token.lastUsedAt));
    expect(ms(token.lastUsedAt)).toBeLessThan(now);
    const settled = (await db.select().from(disbursements)).filter((r) => r.settledAt);
    expect(ms(token.lastUsedAt)).toBe(Math.max(...settled.map((r) => ms(r.settledAt))));
    expect(Math.min(...settled.map((r) => ms(r.releasedAt)))).toBeGreaterThan(ms(token.createdAt));
  });

  it("dates each audit event at what it records, in increasing order, on a chain that verifies", async () => {
    const db = t.deps.db;
    const events = await db.select().from(auditEvents).orderBy(asc(auditEvents.id));
    expect(events.length).toBeGreaterThan(20);
    for (let i = 1; i < events.length; i++) {
      expect(ms(events[i].createdAt), `${events[i].action} after ${events[i - 1].action}`).toBeGreaterThanOrEqual(
        ms(events[i - 1].createdAt),
      );
    }
    const byId = <T extends { id: string }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));
    const people = byId(await db.select().from(users));
    const projectRows = byId(await db.select().from(projects));
    const milestoneRows = byId(await db.select().from(milestones));
    const releases = byId(await db.select().from(disbursements));
    const expected: Record<string, (entityId: string) => Date | null | undefined> = {
      "user.seeded": (id) => people.get(id)?.createdAt,
      "project.created": (id) => projectRows.get(id)?.createdAt,
      "milestone.created": (id) => milestoneRows.get(id)?.createdAt,
      "milestone.verification_started": (id) => milestoneRows.get(id)?.startedAt,
      "milestone.approved": (id) => milestoneRows.get(id)?.verificationDate,
      "milestone.rejected": (id) => milestoneRows.get(id)?.verificationDate,
      "release.settled": (id) => releases.get(id)?.settledAt,
      // Issued with the release, in the approving transaction.
      "certificate.issued": (id) => releases.get(id)?.releasedAt,
    };
    const seen = new Set<string>();
    for (const event of events) {
      const at = expected[event.action];
      if (at) {
        seen.add(event.action);
        expect(ms(event.createdAt), `${event.action} ${event.entityId}`).toBe(ms(at(event.entityId)));
      } else {
        // A failure and its re-instruction fall between the release and its settlement.
        const release = releases.get(event.entityId);
        expect(release, event.action).toBeDefined();
        expect(ms(event.createdAt)).toBeGreaterThan(ms(release?.releasedAt));
        expect(ms(event.createdAt)).toBeLessThan(ms(release?.settledAt));
      }
    }
    expect([...seen].sort()).toEqual(Object.keys(expected).sort());
    expect((await verifyAuditChain(db)).ok).toBe(true);
  });

  it("instructs every release after the approval that made it", async () => {
    const db = t.deps.db;
    const decisions = new Map((await db.select().from(verificationDecisions)).map((d) => [d.id, d]));
    const approvals = (await db.select().from(auditEvents)).filter((e) => e.action === "milestone.approved");
    const releases = await db.select().from(disbursements);
    expect(releases.length).toBeGreaterThan(3);
    for (const release of releases) {
      expect(release.decisionIds.length).toBeGreaterThan(0);
      for (const id of release.decisionIds) {
        expect(ms(release.instructedAt)).toBeGreaterThanOrEqual(ms(decisions.get(id)?.decidedAt));
      }
      const approval = approvals.find((e) => e.entityId === release.milestoneId);
      expect(ms(release.instructedAt)).toBeGreaterThanOrEqual(ms(approval?.createdAt));
      expect(ms(release.releasedAt)).toBeGreaterThanOrEqual(ms(approval?.createdAt));
    }
  });
});
