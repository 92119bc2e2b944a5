// `cli backup --out DIR` and `cli restore --from DIR`. A backup is a folder:
//   database.pgdump        pg_dump's custom format (PostgreSQL), or
//   database.pglite.tar    the embedded database's data directory (PGlite's dumpDataDir)
//   evidence-manifest.json every evidence file's SHA-256 and size, as the database lists them
//   evidence/<sha256>      the files themselves, with the local store (an S3 bucket is backed up by the bucket's
//                          own versioning or replication; the manifest says what must be there)
// The audit signing key and the webhook secrets key are not in it: they are kept apart from the database on
// purpose and are backed up on their own.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { openDatabase } from "../db/client";
import { auditEvents, evidence, users } from "../db/schema";
import type { Env } from "../env";
import { sha256Of } from "./evidence/migrate";
import { evidenceStore } from "./evidence/store";

const PG_DUMP = "database.pgdump";
const PGLITE_DUMP = "database.pglite.tar";
const MANIFEST = "evidence-manifest.json";

interface Manifest {
  createdAt: string;
  database: "postgres" | "pglite";
  evidenceStore: "local" | "s3";
  /** Whether the files are in the backup's evidence/ folder. */
  filesIncluded: boolean;
  files: { sha256: string; size: number }[];
}

export interface BackupReport {
  files: number;
  bytes: number;
  /** Hashes the database lists whose file is missing from the store or does not hash to its name. */
  problems: string[];
}

export class BackupError extends Error {}

const pgliteDir = (env: Env) => path.resolve(env.DATA_DIR, "pglite");

/** Runs pg_dump / pg_restore / psql, failing with its message; a missing binary says what to install. */
function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        new BackupError(
          error.code === "ENOENT"
            ? `${command} is not installed: install the PostgreSQL client of the server's major version (Debian: postgresql-client).`
            : `${command}: ${error.message}`,
        ),
      ),
    );
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new BackupError(`${command} failed (${code}): ${stderr.trim()}`)),
    );
  });
}

async function isEmptyDirectory(dir: string): Promise<boolean> {
  return !existsSync(dir) || (await readdir(dir)).length === 0;
}

export async function backup(env: Env, out: string, log: (line: string) => void): Promise<BackupReport> {
  if (!(await isEmptyDirectory(out))) throw new BackupError(`${out} is not empty: back up into a new folder.`);
  await mkdir(out, { recursive: true });
  const database = await openDatabase({
    url: env.DATABASE_URL,
    dataDir: env.DATABASE_URL ? undefined : pgliteDir(env),
  });
  let files: { sha256: string; size: number }[];
  try {
    files = await database.db.selectDistinct({ sha256: evidence.sha256, size: evidence.size }).from(evidence);
    if (env.DATABASE_URL)
      await run("pg_dump", [
        "--format=custom",
        "--no-owner",
        "--no-privileges",
        `--file=${path.join(out, PG_DUMP)}`,
        env.DATABASE_URL,
      ]);
    else {
      const tarball = await database.dump?.();
      if (!tarball) throw new BackupError("The embedded database cannot be dumped.");
      await writeFile(path.join(out, PGLITE_DUMP), Buffer.from(await tarball.arrayBuffer()));
    }
  } finally {
    await database.close();
  }
  log(`Database written to ${path.join(out, env.DATABASE_URL ? PG_DUMP : PGLITE_DUMP)}.`);

  const store = evidenceStore(env);
  const filesIncluded = store.kind === "local";
  if (filesIncluded) await mkdir(path.join(out, "evidence"));
  const report: BackupReport = { files: 0, bytes: 0, problems: [] };
  files.sort((a, b) => a.sha256.localeCompare(b.sha256));
  for (const file of files) {
    const stream = await store.open(file.sha256);
    if (!stream) {
      report.problems.push(file.sha256);
      log(`missing: evidence ${file.sha256} is in the database but not in ${store.location}`);
      continue;
    }
    // Each file is hashed as it is read (and copied, with the local store), so the backup holds only checked bytes.
    const hash = createHash("sha256");
    if (filesIncluded) {
      const hasher = new Transform({
        transform(chunk: Buffer, _enc, done) {
          hash.update(chunk);
          done(null, chunk);
        },
      });
      await pipeline(stream, hasher, createWriteStream(path.join(out, "evidence", file.sha256)));
    } else {
      for await (const chunk of stream) hash.update(chunk as Buffer);
    }
    if (hash.digest("hex") !== file.sha256) {
      report.problems.push(file.sha256);
      log(`mismatch: evidence ${file.sha256} in ${store.location} does not hash to its name`);
      continue;
    }
    report.files++;
    report.bytes += file.size;
  }
  const manifest: Manifest = {
    createdAt: new Date().toISOString(),
    database: env.DATABASE_URL ? "postgres" : "pglite",
    evidenceStore: store.kind,
    filesIncluded,
    files,
  };
  await writeFile(path.join(out, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return report;
}

/** Whether the database holds anything a restore would overwrite (users or audit events). */
async function hasData(env: Env): Promise<boolean> {
  if (!env.DATABASE_URL && (await isEmptyDirectory(pgliteDir(env)))) return false;
  // Opening migrates an empty database: harmless, the restore replaces the schema as a whole.
  const database = await openDatabase({
    url: env.DATABASE_URL,
    dataDir: env.DATABASE_URL ? undefined : pgliteDir(env),
  });
  try {
    const [user] = await database.db.select({ id: users.id }).from(users).limit(1);
    const [event] = await database.db.select({ id: auditEvents.id }).from(auditEvents).limit(1);
    return Boolean(user || event);
  } finally {
    await database.close();
  }
}

export interface RestoreReport {
  restored: number;
  verified: number;
  problems: string[];
}

export async function restore(
  env: Env,
  from: string,
  options: { force: boolean },
  log: (line: string) => void,
): Promise<RestoreReport> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(path.join(from, MANIFEST), "utf8")) as Manifest;
  } catch (error) {
    throw new BackupError(`${from} is not a Tranche backup: ${(error as Error).message}`);
  }
  const kind = env.DATABASE_URL ? "postgres" : "pglite";
  if (manifest.database !== kind) {
    throw new BackupError(`This backup is of a ${manifest.database} database; DATABASE_URL names a ${kind} one.`);
  }
  if (!options.force && (await hasData(env))) {
    throw new BackupError("The database is not empty: restore into an empty one, or add --force to replace it.");
  }

  if (env.DATABASE_URL) {
    // Replaced wholesale: what a failed run or a newer version left would otherwise clash with the dump's tables.
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    try {
      await client.query("drop schema if exists drizzle cascade; drop schema public cascade; create schema public;");
    } finally {
      await client.end();
    }
    await run("pg_restore", [
      "--no-owner",
      "--no-privileges",
      "--exit-on-error",
      `--dbname=${env.DATABASE_URL}`,
      path.join(from, PG_DUMP),
    ]);
  } else {
    await rm(pgliteDir(env), { recursive: true, force: true });
    const tarball = new Blob([await readFile(path.join(from, PGLITE_DUMP))]);
    const database = await openDatabase({ dataDir: pgliteDir(env), pgliteSnapshot: tarball });
    await database.close();
  }
  log("Database restored.");

  const store = evidenceStore(env);
  const report: RestoreReport = { restored: 0, verified: 0, problems: [] };
  for (const file of manifest.files) {
    const copy = path.join(from, "evidence", file.sha256);
    if (manifest.filesIncluded && existsSync(copy) && !(await store.has(file.sha256))) {
      if ((await sha256Of(createReadStream(copy))) !== file.sha256) {
        report.problems.push(file.sha256);
        log(`mismatch: the backup's copy of ${file.sha256} does not hash to its name; not restored`);
        continue;
      }
      await store.putFile(file.sha256, copy, { keep: true });
      report.restored++;
    }
    const stored = await store.open(file.sha256);
    if (stored && (await sha256Of(stored)) === file.sha256) report.verified++;
    else {
      report.problems.push(file.sha256);
      log(`${stored ? "mismatch" : "missing"}: evidence ${file.sha256} in ${store.location}`);
    }
  }
  return report;
}
