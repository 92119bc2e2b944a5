// The audit record: append-only, hash-chained, verifiable (in process and with `npm run cli -- audit verify`),
// and readable through GET /api/audit by admins (all) and members (their projects).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, type DbOrTx, openDatabase } from "../src/db/client";
import { auditEvents } from "../src/db/schema";
import { testEnv } from "../src/env";
import { createLogger } from "../src/lib/logger";
import { appendAudit } from "../src/services/audit/append";
import { auditContentOf, auditHash } from "../src/services/audit/chain";
import { takeCheckpoint } from "../src/services/audit/checkpoints";
import { loadOrCreateAuditKey } from "../src/services/audit/signing-key";
import { verifyAuditChain } from "../src/services/audit/verify-chain";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser, usePostgres } from "./harness";

const root = fileURLToPath(new URL("../../..", import.meta.url));

let t: TestApp;
let owner: TestUser;
let verifier: TestUser;
let outsider: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  [owner, verifier, outsider, admin] = await Promise.all([
    t.user("project_owner"),
    t.user("verifier"),
    t.user("project_owner"),
    t.user("admin"),
  ]);
});
afterAll(() => t.close());

/** Rewrites one row behind the trigger's back, as someone with table rights could. */
async function tamper(db: DbOrTx, id: number) {
  await db.execute(sql`ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_update_delete`);
  await db.execute(sql`UPDATE audit_events SET after = '{"status":"verified","forged":true}'::jsonb WHERE id = ${id}`);
  await db.execute(sql`ALTER TABLE audit_events ENABLE TRIGGER audit_events_no_update_delete`);
}

async function appendSome(db: Database["db"], n: number) {
  for (let i = 0; i < n; i++) {
    await db.transaction((tx) =>
      appendAudit(tx, {
        actorId: null,
        action: "test.event",
        entityType: "project",
        entityId: `entity-${i}`,
        after: { i },
      }),
    );
  }
}

function runCli(env: Record<string, string>) {
  return spawnSync("npm", ["run", "--silent", "cli", "--", "audit", "verify"], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: "silent", DEMO_DATA: "false", ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
}

describe("the append-only hash chain", () => {
  it("chains real events and refuses UPDATE and DELETE", async () => {
    const project = await makeProject(t, { owner, verifiers: [verifier] });
    const milestone = await makeMilestone(t, project);
    await t.request("POST", `/api/milestones/${milestone.id}/start`, { as: verifier });
    await t.request("POST", `/api/milestones/${milestone.id}/approve`, { as: verifier, body: {} });
    const rows = await t.deps.db.select().from(auditEvents).orderBy(auditEvents.id);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < rows.length; i++) expect(rows[i].prevHash).toBe(rows[i - 1].hash);
    expect(await verifyAuditChain(t.deps.db)).toEqual({ ok: true, count: rows.length });

    await expect(
      t.deps.db.execute(sql`UPDATE audit_events SET action = 'x' WHERE id = ${rows[0].id}`),
    ).rejects.toThrow();
    await expect(t.deps.db.execute(sql`DELETE FROM audit_events WHERE id = ${rows[0].id}`)).rejects.toThrow();
    expect(await verifyAuditChain(t.deps.db)).toMatchObject({ ok: true });
  });

  it("hashes an event in its one statement as the server's own hash does, and refuses one dated before the head", async () => {
    const input = {
      actorId: owner.id,
      action: "test.appended",
      entityType: "user" as const,
      entityId: owner.id,
      after: { note: "Überprüft ✓ — 検証", share: 62.5, nested: { b: [1, null, "x"], a: true } },
    };
    const appended = await t.deps.db.transaction((tx) => appendAudit(tx, input));
    const [row] = await t.deps.db.select().from(auditEvents).where(eq(auditEvents.id, appended.id));
    expect(row.hash).toBe(appended.hash);
    expect(row.hash).toBe(auditHash(row.prevHash, auditContentOf(row)));
    const earlier = new Date(appended.createdAt.getTime() - 60_000);
    await expect(t.deps.db.transaction((tx) => appendAudit(tx, { ...input, createdAt: earlier }))).rejects.toThrow(
      /dated before the last event/,
    );
    expect(await verifyAuditChain(t.deps.db)).toMatchObject({ ok: true });
  });

  it("names the first tampered row, in process and through the CLI", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "tranche-audit-"));
    // PGlite: a database on disk under DATA_DIR, which the CLI opens after we close it.
    // PostgreSQL: this file's own test database, named to the CLI by DATABASE_URL.
    const database = usePostgres ? t.deps.database : await openDatabase({ dataDir: path.join(dataDir, "pglite") });
    try {
      await appendSome(database.db, 5);
      const rows = await database.db.select({ id: auditEvents.id }).from(auditEvents).orderBy(auditEvents.id);
      const target = rows[rows.length - 3].id;
      const intact = await verifyAuditChain(database.db);
      expect(intact.ok).toBe(true);

      await tamper(database.db, target);
      const [changed] = await database.db.select().from(auditEvents).where(eq(auditEvents.id, target));
      expect(changed.after).toEqual({ status: "verified", forged: true });
      const result = await verifyAuditChain(database.db);
      expect(result).toMatchObject({ ok: false, brokenId: target, reason: "its content does not match its hash" });

      const cliEnv = usePostgres
        ? { DATABASE_URL: t.deps.env.DATABASE_URL as string, DATA_DIR: dataDir }
        : { DATABASE_URL: "", DATA_DIR: dataDir };
      if (!usePostgres) await database.close();
      const cli = runCli(cliEnv);
      expect(cli.status).toBe(2);
      expect(cli.stderr).toContain(`Audit chain broken at event ${target}: its content does not match its hash.`);
    } finally {
      if (!usePostgres) await database.close().catch(() => {});
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);

  // Its own embedded database in a fresh DATA_DIR (the file's database was tampered with above).
  it("the CLI reports an intact chain with exit code 0", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "tranche-audit-ok-"));
    try {
      const database = await openDatabase({ dataDir: path.join(dataDir, "pglite") });
      await appendSome(database.db, 3);
      await database.close();
      const cli = runCli({ DATABASE_URL: "", DATA_DIR: dataDir });
      expect(cli.status).toBe(0);
      expect(cli.stdout).toContain("Audit chain intact: 3 events verified.");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
  it("the CLI checks every signed checkpoint with the key file and reports a truncated tail", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "tranche-audit-cp-"));
    try {
      const key = loadOrCreateAuditKey(testEnv({ DATA_DIR: dataDir }), createLogger({ LOG_LEVEL: "silent" }));
      const database = await openDatabase({ dataDir: path.join(dataDir, "pglite") });
      await appendSome(database.db, 4);
      const checkpoint = await takeCheckpoint(database.db, key, { every: 1, intervalMs: 0, force: true });
      await database.close();
      const intact = runCli({ DATABASE_URL: "", DATA_DIR: dataDir });
      expect(intact.status).toBe(0);
      expect(intact.stdout).toContain(`Checkpoints verified: 1 signed with key ${key.keyId}.`);

      const again = await openDatabase({ dataDir: path.join(dataDir, "pglite") });
      await again.db.execute(sql`alter table audit_events disable trigger user`);
      await again.db.execute(sql`delete from audit_events where id >= ${checkpoint?.lastEventId ?? 0}`);
      await again.close();
      const truncated = runCli({ DATABASE_URL: "", DATA_DIR: dataDir });
      expect(truncated.status).toBe(2);
      expect(truncated.stdout).toMatch(/Audit chain intact: \d+ events verified/);
      expect(truncated.stderr).toMatch(/truncated tail: the newest event is \d+, older than checkpoint 1/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe("GET /api/audit", () => {
  it("shows admins everything, members their projects' events, and pages by cursor", async () => {
    const project = await makeProject(t, { owner, verifiers: [verifier] });
    const milestone = await makeMilestone(t, project);
    const second = await makeMilestone(t, project);
    await t.request("POST", `/api/milestones/${milestone.id}/start`, { as: verifier });
    await t.request("POST", `/api/milestones/${second.id}/delay`, { as: owner });
    const other = await makeProject(t, { owner: outsider });
    const otherMilestone = await makeMilestone(t, other);
    await t.request("POST", `/api/milestones/${otherMilestone.id}/delay`, { as: outsider });

    const mine = await t.request("GET", `/api/audit?projectId=${project.id}`, { as: owner });
    expect(mine.status).toBe(200);
    // Newest first.
    expect(mine.body.items.map((e: { action: string }) => e.action)).toEqual([
      "milestone.delayed",
      "milestone.verification_started",
    ]);
    expect(mine.body.items[1]).toMatchObject({ entityId: milestone.id, actor: { id: verifier.id } });

    const ownerAll = await t.request("GET", "/api/audit", { as: owner });
    const ownerEntityIds = ownerAll.body.items.map((e: { entityId: string }) => e.entityId);
    expect(ownerEntityIds).not.toContain(otherMilestone.id);

    const adminAll = await t.request("GET", "/api/audit?limit=100", { as: admin });
    const adminEntityIds = adminAll.body.items.map((e: { entityId: string }) => e.entityId);
    expect(adminEntityIds).toEqual(expect.arrayContaining([milestone.id, otherMilestone.id]));

    const page1 = await t.request("GET", "/api/audit?limit=1", { as: admin });
    expect(page1.body.items).toHaveLength(1);
    expect(page1.body.nextCursor).toBeTruthy();
    const page2 = await t.request("GET", `/api/audit?limit=1&before=${page1.body.nextCursor}`, { as: admin });
    expect(page2.body.items[0].id).toBeLessThan(page1.body.items[0].id);
    const viaCursor = await t.request("GET", `/api/audit?limit=1&cursor=${page1.body.nextCursor}`, { as: admin });
    expect(viaCursor.body.items).toEqual(page2.body.items);
    expect((await t.request("GET", "/api/audit?limit=101", { as: admin })).status).toBe(400);

    expect((await t.request("GET", "/api/audit?limit=0", { as: admin })).status).toBe(400);
    expect((await t.request("GET", "/api/audit", { as: null })).status).toBe(401);
  });
});
