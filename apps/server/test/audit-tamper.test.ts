// What a database administrator can do to the audit record once the triggers are off, and how `audit verify`
// still names it: from the checkpoint log kept beside the signing key, and from the copies that left Tranche
// (audit.checkpoint and release.instructed webhooks) with that log gone.
import { spawnSync } from "node:child_process";
import { createPublicKey, verify } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { and, asc, desc, eq, gte, inArray, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { type Db, openDatabase } from "../src/db/client";
import { auditCheckpoints, auditEvents, disbursements, outbox } from "../src/db/schema";
import { testEnv } from "../src/env";
import { createLogger } from "../src/lib/logger";
import { appendAudit } from "../src/services/audit/append";
import { auditHash } from "../src/services/audit/chain";
import {
  checkpointMessage,
  takeCheckpoint,
  verifyCheckpoints,
  withReleaseCheckpoint,
} from "../src/services/audit/checkpoints";
import { readCopies, verifyCopies } from "../src/services/audit/copies";
import { loadOrCreateAuditKey, parseAuditPublicKey } from "../src/services/audit/signing-key";
import { verifyAuditChain } from "../src/services/audit/verify-chain";
import { verifyRecord } from "../src/services/audit/verify-record";
import { createOutboxWorker } from "../src/services/outbox/worker";
import { webhookTopics } from "../src/services/webhooks/deliveries";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, usePostgres } from "./harness";
import { type Receiver, startReceiver } from "./webhook-receiver";

const root = fileURLToPath(new URL("../../..", import.meta.url));

let t: TestApp | undefined;
let receiver: Receiver | undefined;
let dir: string | undefined;
afterEach(async () => {
  await receiver?.close();
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  [t, receiver, dir] = [undefined, undefined, undefined];
});

async function appendEvents(db: Db, n: number) {
  for (let i = 0; i < n; i++) {
    await db.transaction((tx) =>
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
async function asDatabaseAdmin(db: Db, run: () => Promise<unknown>) {
  await db.execute(sql`alter table audit_events disable trigger user`);
  await db.execute(sql`alter table audit_checkpoints disable trigger user`);
  try {
    await run();
  } finally {
    await db.execute(sql`alter table audit_events enable trigger user`);
    await db.execute(sql`alter table audit_checkpoints enable trigger user`);
  }
}

/**
 * A signed record with a release at its end: 30 events, a checkpoint, 30 more, a checkpoint, then a milestone
 * approved, whose release.instructed leaves (with the audit.checkpoint copies) for a custodian's receiver.
 */
async function recordWithRelease() {
  dir = mkdtempSync(path.join(tmpdir(), "tranche-audit-tamper-"));
  const logFile = path.join(dir, "audit-checkpoints.jsonl");
  const app = await createTestApp({ AUDIT_CHECKPOINT_LOG: logFile, WEBHOOK_ALLOW_PRIVATE: true });
  t = app;
  receiver = await startReceiver();
  const admin = await app.user("admin");
  const endpoint = await app.request("POST", "/api/webhook-endpoints", {
    as: admin,
    body: { url: `${receiver.url}/custodian`, events: ["audit.checkpoint", "release.instructed"] },
  });
  expect(endpoint.status).toBe(201);

  const rule = { every: 1, intervalMs: 600_000, force: true };
  await appendEvents(app.deps.db, 30);
  await takeCheckpoint(app.deps.db, app.deps.auditKey, rule);
  await appendEvents(app.deps.db, 30);
  await takeCheckpoint(app.deps.db, app.deps.auditKey, rule);

  const [owner, verifier] = [await app.user("project_owner"), await app.user("verifier")];
  const project = await makeProject(app, { owner, verifiers: [verifier] });
  const milestone = await makeMilestone(app, project, { status: "in_verification", verifier });
  const approved = await app.request("POST", `/api/milestones/${milestone.id}/approve`, { as: verifier, body: {} });
  expect(approved.status).toBe(200);
  const [release] = await app.deps.db.select().from(disbursements).where(eq(disbursements.milestoneId, milestone.id));
  const [approval] = await app.deps.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entityId, milestone.id), eq(auditEvents.action, "milestone.approved")));
  // The releasing transaction's last event (its certificate's, after the approval): the head a checkpoint signed
  // before the instruction leaves covers.
  const [releaseHead] = await app.deps.db
    .select()
    .from(auditEvents)
    .where(inArray(auditEvents.entityId, [milestone.id, release.id]))
    .orderBy(desc(auditEvents.id))
    .limit(1);

  await createOutboxWorker(app.deps, webhookTopics(app.deps)).drain();
  const received = receiver.received.map((r) => JSON.parse(r.body));
  expect(received.map((e) => e.type).sort()).toEqual([
    "audit.checkpoint",
    "audit.checkpoint",
    "audit.checkpoint",
    "release.instructed",
  ]);
  const key = app.deps.auditKey;
  // Before any tampering, everything holds from every source.
  const intact = await verifyRecord(app.deps.db, {
    key,
    logFile,
    received: { name: "received.json", ...copiesOf(received) },
  });
  expect(intact.problems).toEqual([]);
  expect(intact.lines).toContain(`Checkpoint log ${logFile}: 3 of 3 checkpoints verified.`);
  expect(intact.lines).toContain("Copies from received.json: 3 of 3 checkpoints and 1 of 1 approval hashes verified.");
  return { app, logFile, received, milestone, release, approval, releaseHead };
}

function copiesOf(received: unknown[]) {
  const read = readCopies(received, "received.json");
  expect(read.errors).toEqual([]);
  return read;
}

/** What `audit verify` reported before copies and the log: the chain alone, and the stored checkpoints. */
async function todaysVerdict(app: TestApp) {
  const chain = await verifyAuditChain(app.deps.db);
  const stored = await verifyCheckpoints(app.deps.db, app.deps.auditKey);
  return chain.ok && stored.problems.length === 0 ? "intact" : "tampered";
}

/** The problems named from the local log alone, then from the webhook copies alone (the log deleted). */
async function namedFrom(app: TestApp, logFile: string, received: unknown[]) {
  const fromLog = await verifyRecord(app.deps.db, { key: app.deps.auditKey, logFile });
  rmSync(logFile);
  const fromCopies = await verifyRecord(app.deps.db, {
    key: app.deps.auditKey,
    logFile,
    received: { name: "received.json", ...copiesOf(received) },
  });
  expect(fromCopies.lines).toContain(`No checkpoint log at ${logFile}: only the stored checkpoints were checked.`);
  return { fromLog: fromLog.problems, fromCopies: fromCopies.problems };
}

describe("audit verify against a database administrator", { timeout: 120_000 }, () => {
  it("a release's audit events deleted with every checkpoint after them", async () => {
    const { app, logFile, received, milestone, release, approval, releaseHead } = await recordWithRelease();
    await asDatabaseAdmin(app.deps.db, async () => {
      const deleted = await app.deps.db
        .delete(auditEvents)
        .where(inArray(auditEvents.entityId, [milestone.id, release.id]))
        .returning({ id: auditEvents.id });
      const first = Math.min(...deleted.map((d) => d.id));
      await app.deps.db.delete(auditCheckpoints).where(gte(auditCheckpoints.lastEventId, first));
    });
    expect(await todaysVerdict(app)).toBe("intact");

    const { fromLog, fromCopies } = await namedFrom(app, logFile, received);
    const releaseCheckpoint = new RegExp(`older than checkpoint \\d+ \\([^)]+, event ${releaseHead.id}\\)`);
    expect(fromLog).toEqual([
      expect.stringMatching(/^truncated tail: the newest event is \d+, older than checkpoint/),
      expect.stringMatching(/is no longer among the stored checkpoints: its row was deleted$/),
    ]);
    expect(fromLog[0]).toMatch(releaseCheckpoint);
    expect(fromCopies).toEqual(
      expect.arrayContaining([
        expect.stringMatching(releaseCheckpoint),
        expect.stringContaining(`the approval event with hash ${approval.hash} is not in the record`),
      ]),
    );
  });

  it("every checkpoint deleted, then the newest 20 rows", async () => {
    const { app, logFile, received, approval } = await recordWithRelease();
    await asDatabaseAdmin(app.deps.db, async () => {
      await app.deps.db.delete(auditCheckpoints);
      await app.deps.db.execute(
        sql`delete from audit_events where id in (select id from audit_events order by id desc limit 20)`,
      );
    });
    expect(await todaysVerdict(app)).toBe("intact");

    const { fromLog, fromCopies } = await namedFrom(app, logFile, received);
    // The first checkpoint (event 30) still holds, but its row is gone; the two after it are past the new head.
    expect(fromLog.filter((p) => p.startsWith("truncated tail"))).toHaveLength(2);
    expect(fromLog.filter((p) => p.endsWith("its row was deleted"))).toHaveLength(3);
    expect(fromCopies.filter((p) => p.startsWith("truncated tail"))).toHaveLength(2);
    expect(fromCopies.filter((p) => p.endsWith("its row was deleted"))).toHaveLength(3);
    expect(fromCopies).toContainEqual(expect.stringContaining(`hash ${approval.hash} is not in the record`));
  });

  it("the chain recomputed from a middle row, with every checkpoint deleted", async () => {
    const { app, logFile, received, approval } = await recordWithRelease();
    await asDatabaseAdmin(app.deps.db, async () => {
      await app.deps.db.delete(auditCheckpoints);
      const rows = await app.deps.db.select().from(auditEvents).orderBy(asc(auditEvents.id));
      const middle = 45; // after the first checkpoint (30 events), before the second (60)
      await app.deps.db
        .update(auditEvents)
        .set({ after: { i: 999 } })
        .where(eq(auditEvents.id, rows[middle].id));
      // Re-link every row from the edited one on, as someone with database access but no key would.
      const edited = await app.deps.db.select().from(auditEvents).orderBy(asc(auditEvents.id));
      let prevHash = edited[middle - 1].hash;
      for (const row of edited.slice(middle)) {
        const { id: _id, prevHash: _prev, hash: _hash, ...content } = row;
        const hash = auditHash(prevHash, content);
        await app.deps.db.update(auditEvents).set({ prevHash, hash }).where(eq(auditEvents.id, row.id));
        prevHash = hash;
      }
    });
    expect(await todaysVerdict(app)).toBe("intact");

    const { fromLog, fromCopies } = await namedFrom(app, logFile, received);
    for (const problems of [fromLog, fromCopies]) {
      expect(
        problems.filter((p) => p.includes("no longer has the signed hash: the chain was recomputed")),
      ).toHaveLength(2);
      expect(problems.filter((p) => p.endsWith("its row was deleted"))).toHaveLength(3);
    }
    expect(fromCopies).toContainEqual(expect.stringContaining(`hash ${approval.hash} is not in the record`));
  });

  it("every audit row and every checkpoint deleted", async () => {
    const { app, logFile, received, approval } = await recordWithRelease();
    await asDatabaseAdmin(app.deps.db, async () => {
      await app.deps.db.delete(auditCheckpoints);
      await app.deps.db.delete(auditEvents);
    });
    expect(await verifyAuditChain(app.deps.db)).toEqual({ ok: true, count: 0 });
    expect(await verifyCheckpoints(app.deps.db, app.deps.auditKey)).toEqual({ verified: 0, problems: [] });

    const { fromLog, fromCopies } = await namedFrom(app, logFile, received);
    for (const problems of [fromLog, fromCopies]) {
      expect(problems.filter((p) => p.startsWith("truncated tail: the newest event is 0, older than"))).toHaveLength(3);
      expect(problems.filter((p) => p.endsWith("its row was deleted"))).toHaveLength(3);
    }
    expect(fromCopies).toContainEqual(expect.stringContaining(`hash ${approval.hash} is not in the record`));
  });
});

describe("release.instructed", () => {
  it("leaves with a signed checkpoint that covers its approval, and the copy verifies", async () => {
    const { app, received, approval, release, logFile } = await recordWithRelease();
    const instructed = received.find((e) => e.type === "release.instructed");
    expect(instructed.data).toMatchObject({ releaseId: release.id, approvalEventHash: approval.hash });
    const cp = instructed.data.checkpoint;
    expect(cp).toMatchObject({ keyId: app.deps.auditKey.keyId, publicKeyPem: app.deps.auditKey.publicKeyPem });
    // Shaped like the audit.checkpoint payload, and one of them.
    const sent = received.filter((e) => e.type === "audit.checkpoint").map((e) => e.data);
    expect(sent).toContainEqual(cp);
    expect(Object.keys(cp).sort()).toEqual(Object.keys(sent[0]).sort());

    // Covers the approval: its head is at or after the approval's event, with the record's hash and count there.
    expect(cp.lastEventId).toBeGreaterThanOrEqual(approval.id);
    const upTo = await app.deps.db.select().from(auditEvents).where(sql`${auditEvents.id} <= ${cp.lastEventId}`);
    expect(upTo).toHaveLength(cp.eventCount);
    expect(upTo.find((e) => e.id === cp.lastEventId)?.hash).toBe(cp.headHash);

    // Anyone verifies it with the published key, without Tranche's code.
    const published = await app.request("GET", "/api/audit/public-key", { as: null });
    const message = checkpointMessage({ ...cp, createdAt: new Date(cp.createdAt) });
    expect(
      verify(
        null,
        Buffer.from(message),
        createPublicKey(published.body.publicKeyPem),
        Buffer.from(cp.signature, "base64"),
      ),
    ).toBe(true);
    // Stored, and in the log beside the key.
    const [stored] = await app.deps.db.select().from(auditCheckpoints).where(eq(auditCheckpoints.id, cp.id));
    expect(stored.signature).toBe(cp.signature);
    const logged = readFileSync(logFile, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(logged.map((l) => l.signature)).toContain(cp.signature);
    // An auditor with the public key alone, and the checkpoints as the admin list gives them, find all of it held.
    const admin = await app.user("admin");
    const listed = await app.request("GET", "/api/audit/checkpoints", { as: admin });
    const read = readCopies([...received, ...listed.body.items], "received.json");
    expect(read.errors).toEqual([]);
    const publicOnly = parseAuditPublicKey(published.body.publicKeyPem);
    expect(await verifyCopies(app.deps.db, publicOnly, read.copies)).toEqual({
      checkpoints: 3,
      approvals: 1,
      problems: [],
    });
    // The outbox keeps the event as published; the checkpoint joins it on its way out (a replay sends the same).
    const [event] = await app.deps.db
      .select()
      .from(outbox)
      .where(sql`${outbox.topic} = 'event' and ${outbox.payload}->>'id' = ${instructed.id}`);
    expect((event.payload as { data: Record<string, unknown> }).data.checkpoint).toBeUndefined();
  });
});

describe("npm run cli -- audit verify --checkpoints", () => {
  function runCli(args: string[], env: Record<string, string>) {
    return spawnSync("node", ["--import", "tsx", "apps/server/src/cli.ts", "audit", "verify", ...args], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: "silent", DEMO_DATA: "false", ...env },
      encoding: "utf8",
      timeout: 60_000,
    });
  }

  it("reads the log beside the key file and the received copies, and exits 2 naming what is gone", async () => {
    dir = mkdtempSync(path.join(tmpdir(), "tranche-audit-cli-"));
    const dataDir = dir;
    const key = loadOrCreateAuditKey(testEnv({ DATA_DIR: dataDir }), createLogger({ LOG_LEVEL: "silent" }));
    const logFile = path.join(dataDir, "audit-checkpoints.jsonl");
    expect(key.logFile).toBe(logFile);
    // PGlite: a database on disk under DATA_DIR, which the CLI opens after we close it. PostgreSQL: this test's own.
    if (usePostgres) t = await createTestApp();
    const database = t ? t.deps.database : await openDatabase({ dataDir: path.join(dataDir, "pglite") });
    const cliEnv = { DATABASE_URL: t ? (t.deps.env.DATABASE_URL as string) : "", DATA_DIR: dataDir };
    try {
      const rule = { every: 1, intervalMs: 600_000, force: true };
      await appendEvents(database.db, 10);
      await takeCheckpoint(database.db, key, rule);
      await appendEvents(database.db, 25);
      const [approval] = await database.db.select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
      const instructed = await withReleaseCheckpoint(database.db, key, {
        id: "00000000-0000-4000-8000-000000000001",
        type: "release.instructed",
        createdAt: new Date().toISOString(),
        data: { releaseId: "r1", approvalEventHash: approval.hash },
      });
      const published = await database.db.select().from(outbox).where(eq(outbox.topic, "event"));
      const received = [...published.map((row) => row.payload as { type: string }), instructed];
      expect(received.filter((e) => e.type === "audit.checkpoint")).toHaveLength(2);
      const file = path.join(dataDir, "received.json");
      writeFileSync(file, JSON.stringify(received));
      if (!t) await database.close();

      const intact = runCli(["--checkpoints", file], cliEnv);
      expect(intact.stderr).toBe("");
      expect(intact.status).toBe(0);
      expect(intact.stdout).toContain("Checkpoint log");
      expect(intact.stdout).toContain(`Copies from ${file}: 2 of 2 checkpoints and 1 of 1 approval hashes verified.`);

      const reopened = t ? t.deps.database : await openDatabase({ dataDir: path.join(dataDir, "pglite") });
      const db = reopened.db;
      await db.execute(sql`alter table audit_events disable trigger user`);
      await db.execute(sql`alter table audit_checkpoints disable trigger user`);
      await db.execute(sql`delete from audit_checkpoints`);
      await db.execute(
        sql`delete from audit_events where id in (select id from audit_events order by id desc limit 20)`,
      );
      if (!t) await reopened.close();

      const fromLog = runCli([], cliEnv);
      expect(fromLog.status).toBe(2);
      expect(fromLog.stdout).toMatch(/Audit chain intact: 15 events verified/);
      expect(fromLog.stderr).toMatch(
        /truncated tail: the newest event is \d+, older than checkpoint \d+ .* checkpoint log/,
      );

      rmSync(logFile);
      const fromCopies = runCli(["--checkpoints", file], cliEnv);
      expect(fromCopies.status).toBe(2);
      expect(fromCopies.stderr).toContain(`the approval event with hash ${approval.hash} is not in the record`);
      expect(fromCopies.stderr).toMatch(/its row was deleted/);
      expect(existsSync(logFile)).toBe(false);

      const unreadable = runCli(["--checkpoints", path.join(dataDir, "missing.json")], cliEnv);
      expect(unreadable.status).toBe(64);
    } finally {
      if (!t) await database.close().catch(() => {});
    }
  }, 240_000);
});
