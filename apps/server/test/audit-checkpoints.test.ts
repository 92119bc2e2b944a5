import { createPublicKey, verify } from "node:crypto";
import { asc, desc, eq, gt, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { auditCheckpoints, auditEvents, outbox } from "../src/db/schema";
import { appendAudit } from "../src/services/audit/append";
import { auditHash } from "../src/services/audit/chain";
import {
  checkpointMessage,
  createCheckpointer,
  takeCheckpoint,
  verifyCheckpoints,
} from "../src/services/audit/checkpoints";
import { generateAuditKey } from "../src/services/audit/signing-key";
import { verifyAuditChain } from "../src/services/audit/verify-chain";
import { createTestApp, type TestApp } from "./harness";

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

async function appendEvents(n: number) {
  for (let i = 0; i < n; i++) {
    await t.deps.db.transaction((tx) =>
      appendAudit(tx, {
        actorId: null,
        action: "project.updated",
        entityType: "project",
        entityId: `p${i}`,
        after: { i },
      }),
    );
  }
}

/** What a database administrator can do: switch off the append-only triggers. */
async function asDatabaseAdmin(run: () => Promise<unknown>) {
  await t.deps.db.execute(sql`alter table audit_events disable trigger user`);
  await t.deps.db.execute(sql`alter table audit_checkpoints disable trigger user`);
  try {
    await run();
  } finally {
    await t.deps.db.execute(sql`alter table audit_events enable trigger user`);
    await t.deps.db.execute(sql`alter table audit_checkpoints enable trigger user`);
  }
}

async function eventIds() {
  const rows = await t.deps.db.select({ id: auditEvents.id }).from(auditEvents).orderBy(asc(auditEvents.id));
  return rows.map((r) => r.id);
}

const everyRule = { every: 5, intervalMs: 600_000 };

describe("signed audit checkpoints", () => {
  it("signs the head after N events or after the interval, and sends a copy out as audit.checkpoint", async () => {
    t = await createTestApp({ AUDIT_CHECKPOINT_EVERY: 5, AUDIT_CHECKPOINT_INTERVAL_MS: 600_000 });
    const checkpointer = createCheckpointer(t.deps, t.deps.auditKey);
    await appendEvents(4);
    expect(await checkpointer.tick()).toBeNull();
    await appendEvents(1);
    const first = await checkpointer.tick();
    const ids = await eventIds();
    expect(first).toMatchObject({ lastEventId: ids.at(-1), eventCount: 5, keyId: t.deps.auditKey.keyId });
    expect(await checkpointer.tick()).toBeNull();

    // Fewer than N new events: signed only once the interval has passed.
    await appendEvents(2);
    const early = new Date((first?.createdAt.getTime() ?? 0) + 599_000);
    expect(await takeCheckpoint(t.deps.db, t.deps.auditKey, { ...everyRule, now: early })).toBeNull();
    const late = new Date((first?.createdAt.getTime() ?? 0) + 600_000);
    const second = await takeCheckpoint(t.deps.db, t.deps.auditKey, { ...everyRule, now: late });
    expect(second).toMatchObject({ eventCount: 7 });

    // Anyone can check a signature with the published key, without Tranche's code.
    const admin = await t.user("admin");
    const key = await t.request("GET", "/api/audit/public-key", { as: null });
    expect(key.status).toBe(200);
    expect(key.body).toMatchObject({ algorithm: "Ed25519", keyId: t.deps.auditKey.keyId });
    const list = await t.request("GET", "/api/audit/checkpoints", { as: admin });
    expect(list.status).toBe(200);
    expect(list.body.items.map((c: { eventCount: number }) => c.eventCount)).toEqual([7, 5]);
    for (const cp of list.body.items) {
      const message = checkpointMessage({ ...cp, createdAt: new Date(cp.createdAt) });
      expect(
        verify(null, Buffer.from(message), createPublicKey(key.body.publicKeyPem), Buffer.from(cp.signature, "base64")),
      ).toBe(true);
    }

    const copies = await t.deps.db.select().from(outbox).where(eq(outbox.topic, "event"));
    const sent = copies.map((row) => row.payload as { type: string; data: { eventCount: number } });
    expect(sent.filter((e) => e.type === "audit.checkpoint").map((e) => e.data.eventCount)).toEqual([5, 7]);
  });

  it("lists checkpoints to admins only", async () => {
    t = await createTestApp();
    for (const role of ["investor", "project_owner", "verifier"] as const) {
      expect((await t.request("GET", "/api/audit/checkpoints", { as: await t.user(role) })).status).toBe(403);
    }
    expect((await t.request("GET", "/api/audit/checkpoints", { as: null })).status).toBe(401);
    const bad = await t.request("GET", "/api/audit/checkpoints?limit=0", { as: await t.user("admin") });
    expect(bad.status).toBe(400);
  });

  describe("audit verify reports what a database administrator did", () => {
    async function signedRecord() {
      t = await createTestApp();
      await appendEvents(8);
      await takeCheckpoint(t.deps.db, t.deps.auditKey, { ...everyRule, force: true });
      await appendEvents(2);
      expect(await verifyAuditChain(t.deps.db)).toEqual({ ok: true, count: 10 });
      expect(await verifyCheckpoints(t.deps.db, t.deps.auditKey)).toEqual({ verified: 1, problems: [] });
      return eventIds();
    }

    it("an edited row", async () => {
      const ids = await signedRecord();
      await asDatabaseAdmin(() =>
        t.deps.db
          .update(auditEvents)
          .set({ after: { i: 999 } })
          .where(eq(auditEvents.id, ids[3])),
      );
      expect(await verifyAuditChain(t.deps.db)).toMatchObject({
        ok: false,
        brokenId: ids[3],
        reason: "its content does not match its hash",
      });
    });

    it("a deleted middle row", async () => {
      const ids = await signedRecord();
      await asDatabaseAdmin(() => t.deps.db.delete(auditEvents).where(eq(auditEvents.id, ids[3])));
      expect(await verifyAuditChain(t.deps.db)).toMatchObject({
        ok: false,
        brokenId: ids[4],
        reason: "its previous-hash link does not match the row before it",
      });
    });

    it("a truncated tail: what remains is a valid chain, but older than the newest checkpoint", async () => {
      const ids = await signedRecord();
      await asDatabaseAdmin(() => t.deps.db.delete(auditEvents).where(gt(auditEvents.id, ids[5])));
      expect(await verifyAuditChain(t.deps.db)).toEqual({ ok: true, count: 6 });
      const report = await verifyCheckpoints(t.deps.db, t.deps.auditKey);
      expect(report.verified).toBe(0);
      expect(report.problems).toEqual([expect.stringMatching(/^truncated tail: the newest event is \d+, older than/)]);
    });

    it("a chain recomputed without the key", async () => {
      const ids = await signedRecord();
      await asDatabaseAdmin(async () => {
        await t.deps.db
          .update(auditEvents)
          .set({ after: { i: 999 } })
          .where(eq(auditEvents.id, ids[2]));
        // Re-link every row from the edited one on, as someone with database access but no key would.
        const rows = await t.deps.db.select().from(auditEvents).orderBy(asc(auditEvents.id));
        let prevHash = rows[1].hash;
        for (const row of rows.slice(2)) {
          const { id: _id, prevHash: _prev, hash: _hash, ...content } = row;
          const hash = auditHash(prevHash, content);
          await t.deps.db.update(auditEvents).set({ prevHash, hash }).where(eq(auditEvents.id, row.id));
          prevHash = hash;
        }
      });
      expect(await verifyAuditChain(t.deps.db)).toEqual({ ok: true, count: 10 });
      const report = await verifyCheckpoints(t.deps.db, t.deps.auditKey);
      expect(report.problems).toEqual([
        expect.stringMatching(/no longer has the signed hash: the chain was recomputed/),
      ]);
    });

    it("a forged checkpoint, or one signed by another key", async () => {
      await signedRecord();
      const [cp] = await t.deps.db.select().from(auditCheckpoints).orderBy(desc(auditCheckpoints.id)).limit(1);
      await asDatabaseAdmin(() =>
        t.deps.db.update(auditCheckpoints).set({ eventCount: 9 }).where(eq(auditCheckpoints.id, cp.id)),
      );
      expect((await verifyCheckpoints(t.deps.db, t.deps.auditKey)).problems).toEqual([
        expect.stringMatching(/its signature does not verify/),
      ]);
      expect((await verifyCheckpoints(t.deps.db, generateAuditKey())).problems).toEqual([
        expect.stringMatching(/was signed by key \w+, not the configured key/),
      ]);
    });
  });

  it("refuses to rewrite a checkpoint through the application's own connection", async () => {
    t = await createTestApp();
    await appendEvents(1);
    await takeCheckpoint(t.deps.db, t.deps.auditKey, { ...everyRule, force: true });
    await expect(t.deps.db.delete(auditCheckpoints)).rejects.toThrow();
    // TRUNCATE fires no row trigger: the table refuses it as the audit record does.
    await expect(t.deps.db.execute(sql`truncate audit_checkpoints`)).rejects.toMatchObject({
      cause: expect.objectContaining({ message: expect.stringContaining("append-only (TRUNCATE refused)") }),
    });
    expect(await t.deps.db.select().from(auditCheckpoints)).toHaveLength(1);
  });
});
