// The restore drill: a server makes evidence and audit events, `cli backup` writes them out, the database and the
// evidence are wiped, `cli restore` brings them back (refusing a non-empty database without --force), then
// `cli audit verify` passes and every evidence file downloaded through a new server matches its SHA-256.
// Embedded PGlite in the PGlite suite, a PostgreSQL database (pg_dump / pg_restore) in the PostgreSQL suite.
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createPgDatabase, usePostgres } from "./harness";
import { type ServerProcess, startServerProcess, stopServerProcess } from "./server-process";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const sha = (data: Buffer) => createHash("sha256").update(data).digest("hex");
const dataDir = mkdtempSync(path.join(tmpdir(), "tranche-drill-"));
const backupDir = path.join(mkdtempSync(path.join(tmpdir(), "tranche-backup-")), "backup");
let databaseUrl: string | undefined;
let dropDatabase: (() => Promise<void>) | undefined;
let proc: ServerProcess | undefined;

async function sql(query: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

const env = () => ({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? "", LOG_LEVEL: "silent" });

function cli(...args: string[]) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      ["--import", "tsx", "apps/server/src/cli.ts", ...args],
      { cwd: root, env: { ...process.env, ...env() } },
      (_error, stdout, stderr) => resolve({ status: child.exitCode, stdout, stderr }),
    );
  });
}

afterAll(async () => {
  await stopServerProcess(proc, "SIGKILL");
  await dropDatabase?.();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(path.dirname(backupDir), { recursive: true, force: true });
});

describe("backup and restore", () => {
  it("backs up, wipes, restores; audit verify passes and every evidence file matches its SHA-256", async () => {
    if (usePostgres) ({ url: databaseUrl, drop: dropDatabase } = await createPgDatabase());
    proc = await startServerProcess(databaseUrl ?? null, { ...env(), DEMO_DATA: "true", LOG_LEVEL: "warn" });
    const signIn = await fetch(`${proc.url}/api/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: proc.url },
      body: JSON.stringify({ email: "owner@tranche.demo", password: "tranche-demo-2025" }),
    });
    expect(signIn.status).toBe(200);
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0];
    const list = (await (await fetch(`${proc.url}/api/milestones?status=pending`, { headers: { cookie } })).json()) as {
      items: { id: string }[];
    };
    const milestone = list.items[0];
    const files = [randomBytes(300_000), Buffer.from("inspection report, page 1")];
    const form = new FormData();
    for (const [i, f] of files.entries()) form.append("files", new Blob([f]), `evidence-${i}.bin`);
    const uploaded = await fetch(`${proc.url}/api/milestones/${milestone.id}/evidence`, {
      method: "POST",
      headers: { cookie, origin: proc.url },
      body: form,
    });
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const { items } = (await uploaded.json()) as { items: { id: string; sha256: string }[] };
    await stopServerProcess(proc);

    const made = await cli("backup", "--out", backupDir);
    expect(made.status, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/Backup in .*: \d+ evidence files \(\d+ bytes\) checked, 0 missing or mismatched/);
    const manifest = JSON.parse(readFileSync(path.join(backupDir, "evidence-manifest.json"), "utf8"));
    expect(manifest.files.map((f: { sha256: string }) => f.sha256)).toEqual(
      expect.arrayContaining(files.map((f) => sha(f))),
    );
    expect(existsSync(path.join(backupDir, usePostgres ? "database.pgdump" : "database.pglite.tar"))).toBe(true);
    // A backup never overwrites another.
    expect((await cli("backup", "--out", backupDir)).status).toBe(1);

    // Refused over a database that has data, unless --force.
    const refused = await cli("restore", "--from", backupDir);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("not empty");

    // The wipe: database and evidence gone.
    if (databaseUrl)
      await sql("drop schema if exists drizzle cascade; drop schema public cascade; create schema public;");
    else rmSync(path.join(dataDir, "pglite"), { recursive: true, force: true });
    rmSync(path.join(dataDir, "evidence"), { recursive: true, force: true });

    const restored = await cli("restore", "--from", backupDir);
    expect(restored.status, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/Restored: \d+ evidence files copied into the store, \d+ verified, 0 missing/);
    // Once more with --force over the restored database: the same result.
    const forced = await cli("restore", "--from", backupDir, "--force");
    expect(forced.status, forced.stderr).toBe(0);

    const verified = await cli("audit", "verify");
    expect(verified.status, `${verified.stdout}\n${verified.stderr}`).toBe(0);

    proc = await startServerProcess(databaseUrl ?? null, { ...env(), LOG_LEVEL: "warn" });
    const again = await fetch(`${proc.url}/api/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: proc.url },
      body: JSON.stringify({ email: "owner@tranche.demo", password: "tranche-demo-2025" }),
    });
    const restoredCookie = (again.headers.get("set-cookie") ?? "").split(";")[0];
    for (const item of items) {
      const res = await fetch(`${proc.url}/api/evidence/${item.id}`, { headers: { cookie: restoredCookie } });
      expect(res.status).toBe(200);
      expect(sha(Buffer.from(await res.arrayBuffer()))).toBe(item.sha256);
    }
  }, 240_000);
});
