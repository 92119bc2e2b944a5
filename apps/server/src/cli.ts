import { readFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { signUpSchema } from "@tranche/domain";
import { eq, sql } from "drizzle-orm";
import { hashPassword, passwordWeaknesses } from "./auth/password";
import type { Deps } from "./context";
import { startCustodianSim } from "./custodian-sim";
import { openDatabase } from "./db/client";
import { users } from "./db/schema";
import { loadEnv } from "./env";
import { createLogger } from "./lib/logger";
import { seedDemoData } from "./seed";
import { seedScale } from "./seed-scale";
import { appendAudit } from "./services/audit/append";
import { takeCheckpoint } from "./services/audit/checkpoints";
import { readCopies } from "./services/audit/copies";
import {
  type AuditPublicKey,
  checkpointLogPath,
  findAuditKey,
  parseAuditPublicKey,
} from "./services/audit/signing-key";
import { verifyRecord } from "./services/audit/verify-record";
import { BackupError, backup, restore } from "./services/backup";
import { migrateEvidence } from "./services/evidence/migrate";
import { localStore } from "./services/evidence/store-local";
import { s3Store } from "./services/evidence/store-s3";
import { closeOcr } from "./services/evidence-checks/ocr";
import { evidenceCheckTopic, queueRechecks } from "./services/evidence-checks/run";
import { CHECKER_VERSION } from "./services/evidence-checks/version";
import { createOutboxWorker } from "./services/outbox/worker";
import {
  findPlatformRollupDifferences,
  findReleasesInAnotherCurrency,
  findRollupDifferences,
  rebuildAllRollups,
} from "./services/projects/rollup";

const USAGE = `Usage:
  npm run cli -- create-admin --email <email> --name <name>   (password prompted, or piped on stdin)
  npm run cli -- seed                                          (demo accounts and projects; empty database only)
  npm run cli -- audit verify [--checkpoints FILE] [--public-key FILE]
                                                               (re-computes the audit hash chain, checks the signed
                                                               checkpoints, the checkpoint log beside the key and the
                                                               copies that left Tranche: FILE is a JSON array of
                                                               audit.checkpoint / release.* webhook payloads or listed
                                                               checkpoints; exit 2 names what is missing or altered)
  npm run cli -- audit checkpoint                              (signs the chain head now)
  npm run cli -- seed-scale --projects 10000 --milestones-per-project 10 --investor-projects 200
                                                               (a large portfolio for bench/scale.ts; demo accounts first
                                                               when the database is empty)
  npm run cli -- evidence recheck [--all] [--now]              (queues the background evidence checks again for files
                                                               checked by an older checker, failed or never checked;
                                                               --all: every file; --now: runs them in this process)
  npm run cli -- rollups verify [--fix]                        (recomputes every project's rollup and the platform's
                                                               totals, reports differences; --fix rewrites them)
  npm run cli -- evidence migrate --to s3                      (copies every file of DATA_DIR/evidence to the S3_* bucket,
                                                               reads each back and checks its SHA-256; exit 2 on a
                                                               mismatch or an evidence row whose file is missing)
  npm run cli -- backup --out DIR                              (the database — pg_dump, or the embedded data directory —
                                                               and every evidence file's SHA-256 and size; the files
                                                               too with the local store; DIR must be new or empty)
  npm run cli -- restore --from DIR [--force]                  (into an empty database, or replacing it with --force;
                                                               then checks every evidence file's SHA-256; exit 2 on a
                                                               mismatch or a missing file)
  npm run cli -- custodian-sim --port 4000 --secret whsec_… [--token <api token> --auto-settle] [--api http://localhost:3000] [--host 127.0.0.1]
                                                               (a reference webhook receiver: verifies, prints, settles)`;

async function readPassword(): Promise<string> {
  const rl = createInterface({
    input: process.stdin,
    output: process.stdin.isTTY ? process.stdout : undefined,
    terminal: false,
  });
  if (process.stdin.isTTY) process.stdout.write("Password (12+ characters): ");
  for await (const line of rl) {
    rl.close();
    return line;
  }
  return "";
}

async function main() {
  const [command, sub, ...rest] = process.argv.slice(2);
  const env = loadEnv();
  const open = () =>
    openDatabase({
      url: env.DATABASE_URL,
      dataDir: env.DATABASE_URL ? undefined : path.resolve(env.DATA_DIR, "pglite"),
    });

  if (command === "create-admin") {
    const { values } = parseArgs({
      args: [sub, ...rest].filter(Boolean),
      options: { email: { type: "string" }, name: { type: "string" } },
    });
    const password = await readPassword();
    const parsed = signUpSchema.safeParse({ email: values.email, name: values.name, password });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) console.error(`${issue.path.join(".")}: ${issue.message}`);
      return 1;
    }
    const reasons = passwordWeaknesses(parsed.data.password, [parsed.data.email, parsed.data.name]);
    if (reasons.length) {
      console.error(`Password is too weak:\n- ${reasons.join("\n- ")}`);
      return 1;
    }
    const database = await open();
    try {
      const passwordHash = await hashPassword(parsed.data.password);
      const result = await database.db.transaction(async (tx) => {
        const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, parsed.data.email));
        if (existing) return null;
        const [row] = await tx
          .insert(users)
          .values({ email: parsed.data.email, name: parsed.data.name, passwordHash, role: "admin" })
          .returning({ id: users.id });
        await appendAudit(tx, {
          actorId: null,
          action: "user.admin_created",
          entityType: "user",
          entityId: row.id,
          after: { email: parsed.data.email, role: "admin" },
        });
        return row;
      });
      if (!result) {
        console.error(`A user with the email ${parsed.data.email} already exists.`);
        return 1;
      }
      console.log(`Admin ${parsed.data.email} created.`);
      return 0;
    } finally {
      await database.close();
    }
  }

  if (command === "seed") {
    const database = await open();
    try {
      const existing = await database.db.select({ id: users.id }).from(users).limit(1);
      if (existing.length) {
        console.error("The database already has users; demo data is only seeded into an empty database.");
        return 1;
      }
      await seedDemoData(database.db);
      console.log("Demo data seeded.");
      return 0;
    } finally {
      await database.close();
    }
  }

  if (command === "audit" && sub === "verify") {
    let values: { checkpoints?: string; "public-key"?: string };
    try {
      ({ values } = parseArgs({
        args: rest,
        options: { checkpoints: { type: "string" }, "public-key": { type: "string" } },
      }));
    } catch (error) {
      console.error(`${(error as Error).message}\n${USAGE}`);
      return 64;
    }
    // What left Tranche, read before the database is opened: a file that cannot be read is a usage error.
    let received: ReturnType<typeof readCopies> | null = null;
    if (values.checkpoints) {
      let document: unknown;
      try {
        document = JSON.parse(readFileSync(values.checkpoints, "utf8"));
      } catch (error) {
        console.error(`Cannot read ${values.checkpoints} as JSON: ${(error as Error).message}`);
        return 64;
      }
      received = readCopies(document, values.checkpoints);
      if (received.errors.length) {
        for (const error of received.errors) console.error(error);
        return 64;
      }
    }
    let key: AuditPublicKey | null;
    try {
      key = values["public-key"] ? parseAuditPublicKey(readFileSync(values["public-key"], "utf8")) : findAuditKey(env);
    } catch (error) {
      console.error(`Cannot read the audit key: ${(error as Error).message}`);
      return 64;
    }
    const database = await open();
    try {
      const result = await verifyRecord(database.db, {
        key,
        logFile: checkpointLogPath(env),
        received: received && values.checkpoints ? { name: values.checkpoints, ...received } : undefined,
      });
      for (const line of result.lines) console.log(line);
      for (const problem of result.problems) console.error(problem);
      return result.problems.length === 0 ? 0 : 2;
    } finally {
      await database.close();
    }
  }

  if (command === "audit" && sub === "checkpoint") {
    const key = findAuditKey(env);
    if (!key) {
      console.error("No audit signing key configured: set AUDIT_SIGNING_KEY or AUDIT_SIGNING_KEY_FILE.");
      return 1;
    }
    const database = await open();
    try {
      const row = await takeCheckpoint(database.db, key, { every: 1, intervalMs: 0, force: true });
      console.log(row ? `Checkpoint ${row.id} signed at event ${row.lastEventId}.` : "Nothing new to sign.");
      return 0;
    } finally {
      await database.close();
    }
  }

  if (command === "seed-scale") {
    const { values } = parseArgs({
      args: [sub, ...rest].filter(Boolean),
      options: {
        projects: { type: "string", default: "1000" },
        "milestones-per-project": { type: "string", default: "10" },
        "investor-projects": { type: "string", default: "200" },
      },
    });
    const [projects, milestonesPerProject, investorProjects] = [
      values.projects,
      values["milestones-per-project"],
      values["investor-projects"],
    ].map(Number);
    if (
      ![projects, milestonesPerProject, investorProjects].every((n) => Number.isInteger(n) && n >= 0) ||
      investorProjects > projects ||
      milestonesPerProject > 200
    ) {
      console.error(
        "seed-scale needs whole numbers: --projects, --milestones-per-project (at most 200) and --investor-projects (at most --projects).",
      );
      return 64;
    }
    const database = await open();
    try {
      const started = Date.now();
      const result = await seedScale(database.db, {
        projects,
        milestonesPerProject,
        investorProjects,
        log: (line) => console.log(line),
      });
      // Fresh statistics and visibility maps, so the grown tables are served well at once (autovacuum would, later).
      await database.db.execute(sql`vacuum analyze`);
      console.log(
        `Seeded ${result.projects} projects, ${result.milestones} milestones, ${result.releases} releases, ${result.users} users and ${result.auditEvents} audit events in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
      );
      return 0;
    } finally {
      await database.close();
    }
  }

  if (command === "rollups" && sub === "verify") {
    const { values } = parseArgs({ args: rest, options: { fix: { type: "boolean", default: false } } });
    const database = await open();
    try {
      const differences = await findRollupDifferences(database.db);
      for (const d of differences) {
        console.error(
          `Project ${d.projectId}: stored ${JSON.stringify(d.stored)}, recomputed ${JSON.stringify(d.expected)}`,
        );
      }
      const platform = await findPlatformRollupDifferences(database.db);
      for (const d of platform) {
        console.error(
          `Platform totals in ${d.currency}: stored ${JSON.stringify(d.stored)}, summed ${JSON.stringify(d.expected)}`,
        );
      }
      const strays = await findReleasesInAnotherCurrency(database.db);
      for (const r of strays) {
        console.error(
          `Release ${r.releaseId} of project ${r.projectId} is in ${r.currency}; the project is in ${r.projectCurrency}, so no total counts it.`,
        );
      }
      if (differences.length === 0 && platform.length === 0 && strays.length === 0) {
        console.log("Rollups match a recomputation for every project, and the platform totals their sum.");
        return 0;
      }
      if (strays.length > 0) console.error(`${strays.length} release(s) in another currency than their project's.`);
      if (differences.length > 0) console.error(`${differences.length} project rollup(s) differ from a recomputation.`);
      if (platform.length > 0) console.error(`${platform.length} currency total(s) differ from the rollups' sum.`);
      if (!values.fix) return 2;
      await rebuildAllRollups(database.db);
      const left =
        (await findRollupDifferences(database.db)).length + (await findPlatformRollupDifferences(database.db)).length;
      console.log(left === 0 ? "Rollups rewritten; they now match." : `${left} still differ.`);
      return left === 0 && strays.length === 0 ? 0 : 2;
    } finally {
      await database.close();
    }
  }

  if (command === "evidence" && sub === "recheck") {
    const { values } = parseArgs({
      args: rest,
      options: { all: { type: "boolean", default: false }, now: { type: "boolean", default: false } },
    });
    const database = await open();
    try {
      const queued = await queueRechecks(database.db, { all: values.all });
      console.log(`Queued the evidence checks of ${queued} file(s) (checker ${CHECKER_VERSION}).`);
      if (values.now && queued > 0) {
        const deps = { env, database, db: database.db, logger: createLogger(env) } as unknown as Deps;
        const ran = await createOutboxWorker(deps, evidenceCheckTopic(deps)).drain();
        await closeOcr();
        console.log(`Ran ${ran} check(s).`);
      } else if (queued > 0) {
        console.log("A running server picks them up from its outbox.");
      }
      return 0;
    } finally {
      await database.close();
    }
  }

  if (command === "evidence" && sub === "migrate") {
    let to: string | undefined;
    try {
      ({
        values: { to },
      } = parseArgs({ args: rest, options: { to: { type: "string" } } }));
    } catch (error) {
      console.error(`${(error as Error).message}\n${USAGE}`);
      return 64;
    }
    if (to !== "s3") {
      console.error("evidence migrate needs --to s3 (the only store evidence moves to from DATA_DIR/evidence).");
      return 64;
    }
    if (!env.S3_BUCKET) {
      console.error("S3_BUCKET (and S3_ENDPOINT, S3_REGION, credentials as needed) names the bucket to copy to.");
      return 64;
    }
    const [from, target] = [localStore(env), s3Store(env)];
    const database = await open();
    try {
      const report = await migrateEvidence(database.db, env, from, target, (line) => console.error(line));
      console.log(
        `Evidence from ${from.location} to ${target.location}: ${report.copied} copied, ${report.alreadyThere} already there, ${report.verified} verified, ${report.mismatched.length} mismatched, ${report.missing.length} missing.`,
      );
      if (report.mismatched.length > 0 || report.missing.length > 0) return 2;
      console.log("Every file's SHA-256 matches. Set EVIDENCE_STORE=s3 and restart the servers.");
      return 0;
    } finally {
      await database.close();
    }
  }

  if (command === "backup" || command === "restore") {
    let values: { out?: string; from?: string; force?: boolean };
    try {
      ({ values } = parseArgs({
        args: [sub, ...rest].filter(Boolean),
        options: { out: { type: "string" }, from: { type: "string" }, force: { type: "boolean", default: false } },
      }));
    } catch (error) {
      console.error(`${(error as Error).message}\n${USAGE}`);
      return 64;
    }
    const log = (line: string) => console.error(line);
    try {
      if (command === "backup") {
        if (!values.out) {
          console.error("backup needs --out DIR (a new or empty folder).");
          return 64;
        }
        const report = await backup(env, path.resolve(values.out), log);
        console.log(
          `Backup in ${path.resolve(values.out)}: ${report.files} evidence files (${report.bytes} bytes) checked, ${report.problems.length} missing or mismatched.`,
        );
        console.log("Back up the audit signing key and the webhook secrets key separately (see README).");
        return report.problems.length === 0 ? 0 : 2;
      }
      if (!values.from) {
        console.error("restore needs --from DIR (a folder written by backup).");
        return 64;
      }
      const report = await restore(env, path.resolve(values.from), { force: values.force ?? false }, log);
      console.log(
        `Restored: ${report.restored} evidence files copied into the store, ${report.verified} verified, ${report.problems.length} missing or mismatched.`,
      );
      return report.problems.length === 0 ? 0 : 2;
    } catch (error) {
      if (!(error instanceof BackupError)) throw error;
      console.error(error.message);
      return 1;
    }
  }

  if (command === "custodian-sim") {
    const { values } = parseArgs({
      args: [sub, ...rest].filter(Boolean),
      options: {
        port: { type: "string", default: "4000" },
        host: { type: "string", default: "127.0.0.1" },
        secret: { type: "string" },
        token: { type: "string" },
        "auto-settle": { type: "boolean", default: false },
        api: { type: "string", default: env.PUBLIC_URL },
      },
    });
    const port = Number(values.port);
    if (!values.secret?.startsWith("whsec_") || !Number.isInteger(port) || port < 0 || port > 65535) {
      console.error("custodian-sim needs --secret whsec_… (the endpoint's signing secret) and a --port number.");
      return 64;
    }
    if (values["auto-settle"] && !values.token) {
      console.error("--auto-settle needs --token (an API token with the releases:write scope).");
      return 64;
    }
    const sim = await startCustodianSim({
      port,
      host: values.host,
      secret: values.secret,
      token: values.token,
      autoSettle: values["auto-settle"],
      api: values.api,
    });
    console.log(
      `Custodian simulator listening on ${sim.url}${values["auto-settle"] ? ` (settling releases through ${values.api})` : ""}`,
    );
    await new Promise<void>((resolve) => {
      process.once("SIGINT", resolve);
      process.once("SIGTERM", resolve);
    });
    await sim.close();
    return 0;
  }

  console.error(USAGE);
  return 64;
}

process.exitCode = await main();
