// A rolling restart under load: two server processes (separate DATA_DIRs, one PostgreSQL database, evidence in an
// S3 protocol server) behind HAProxy with deploy/haproxy.cfg, and --clients concurrent clients reading, uploading
// evidence and approving milestones through the proxy. Meanwhile each server in turn gets SIGTERM, exits, is started
// again and waited for until the proxy sends it requests. Prints requests sent, failed (goal 0) and duplicated
// releases (goal 0: a milestone released more than once); exit 1 when a goal is missed.
//
//   TEST_DATABASE_URL=postgres://… npm run bench:rolling-restart [-- --clients 50 --projects 200]
import { execFile } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { startHaproxy } from "../apps/server/test/haproxy";
import { startS3 } from "../apps/server/test/s3";
import { type BenchServer, freePort, repoRoot, signIn, startBenchServer, tempPostgres } from "./support";

const { values } = parseArgs({
  options: {
    clients: { type: "string", default: "50" },
    projects: { type: "string", default: "200" },
    "settle-ms": { type: "string", default: "3000" },
    "approval-every-ms": { type: "string", default: "150" },
  },
});
const clients = Number(values.clients);
const settleMs = Number(values["settle-ms"]);

const database = await tempPostgres("tranche_rolling");
if (!database) throw new Error("set TEST_DATABASE_URL (a PostgreSQL server): the servers share one database");
const s3 = await startS3("tranche-rolling");
const dataDirs = [0, 1].map(() => mkdtempSync(path.join(tmpdir(), "tranche-rolling-")));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// A portfolio with milestones in verification (to approve) and pending (to upload to); demo accounts first.
await new Promise<void>((resolve, reject) =>
  execFile(
    process.execPath,
    [
      "--import",
      "tsx",
      "apps/server/src/cli.ts",
      "seed-scale",
      "--projects",
      values.projects,
      "--milestones-per-project",
      "10",
      "--investor-projects",
      "10",
    ],
    { cwd: repoRoot, env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: "error" } },
    (error) => (error ? reject(error) : resolve()),
  ),
);

const shared = {
  ...s3.env,
  TRUST_PROXY: "true",
  DEMO_DATA: "true",
  MFA_REQUIRED_ROLES: "none",
  LOG_LEVEL: "error",
  SIGNIN_LIMIT_PER_IP: "100000",
  API_TOKEN_LIMIT_PER_MINUTE: "100000",
  // The keys that default to DATA_DIR, the same for both processes (README, "Operating Tranche").
  AUDIT_SIGNING_KEY: generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  WEBHOOK_SECRETS_KEY: randomBytes(32).toString("base64"),
};
const ports = [await freePort(), await freePort()];
const start = (i: number) =>
  startBenchServer({ databaseUrl: database.url, dataDir: dataDirs[i], port: ports[i], env: shared });
const servers: BenchServer[] = [await start(0), await start(1)];
const proxy = await startHaproxy({ a: `127.0.0.1:${ports[0]}`, b: `127.0.0.1:${ports[1]}` });

const db = new pg.Client({ connectionString: database.url });
await db.connect();
let exitCode = 0;
try {
  await proxy.waitForServers(["a", "b"]);
  const base = proxy.url;
  const toApprove = (
    await db.query<{ id: string; email: string }>(
      `select m.id, u.email from milestones m join users u on u.id = m.verifier_id
       where m.status = 'in_verification' order by m.id`,
    )
  ).rows;
  const toUpload = (
    await db.query<{ id: string; email: string }>(
      `select m.id, u.email from milestones m
       join project_members pm on pm.project_id = m.project_id and pm.role = 'owner'
       join users u on u.id = pm.user_id
       where m.status = 'pending' order by m.id limit 200`,
    )
  ).rows;
  const cookies = new Map<string, string>();
  for (const { email } of [...toApprove, ...toUpload, { email: "investor@tranche.demo" }]) {
    if (!cookies.has(email)) cookies.set(email, await signIn(base, email));
  }
  console.log(
    `${clients} clients through HAProxy; ${toApprove.length} milestones to approve, ${toUpload.length} to upload to.`,
  );

  const stats = { sent: 0, failed: 0, reads: 0, uploads: 0, approvals: 0 };
  const failures = new Map<string, number>();
  const fail = (what: string) => {
    stats.failed++;
    failures.set(what, (failures.get(what) ?? 0) + 1);
  };
  const send = async (kind: "read" | "upload" | "approve", path: string, init: RequestInit, ok: number) => {
    stats.sent++;
    try {
      const res = await fetch(`${base}${path}`, init);
      await res.arrayBuffer();
      // HAProxy's own answers carry no X-Tranche-Server header.
      if (res.status !== ok) fail(`${kind} ${res.status}${res.headers.get("x-tranche-server") ? "" : " (proxy)"}`);
      else stats[kind === "read" ? "reads" : kind === "upload" ? "uploads" : "approvals"]++;
    } catch (error) {
      fail(
        `${kind} ${(error as Error).cause ? String((error as { cause: Error }).cause.message) : (error as Error).message}`,
      );
    }
  };
  let running = true;
  let approveNext = 0;
  let lastApproval = 0;
  const approvalEveryMs = Number(values["approval-every-ms"]);
  const investor = cookies.get("investor@tranche.demo") as string;
  const reads = ["/api/milestones?limit=20", "/api/projects?limit=20", "/api/dashboard", "/api/notifications"];
  const client = async (n: number) => {
    for (let i = 0; running; i++) {
      const roll = (n + i) % 10;
      if (roll < 6) {
        await send("read", reads[(n + i) % reads.length], { headers: { cookie: investor } }, 200);
      } else if (roll < 8) {
        const m = toUpload[(n * 7 + i) % toUpload.length];
        const form = new FormData();
        form.append("files", new Blob([randomBytes(4096)]), `photo-${n}-${i}.jpg`);
        await send(
          "upload",
          `/api/milestones/${m.id}/evidence`,
          { method: "POST", headers: { cookie: cookies.get(m.email) as string, origin: base }, body: form },
          201,
        );
      } else if (approveNext < toApprove.length && performance.now() - lastApproval >= approvalEveryMs) {
        // Paced, so approvals go on through both restarts instead of running out before the first.
        lastApproval = performance.now();
        const m = toApprove[approveNext++];
        await send(
          "approve",
          `/api/milestones/${m.id}/approve`,
          {
            method: "POST",
            headers: { cookie: cookies.get(m.email) as string, origin: base, "content-type": "application/json" },
            body: "{}",
          },
          200,
        );
      } else {
        await send("read", reads[(n + i) % reads.length], { headers: { cookie: investor } }, 200);
      }
    }
  };
  const load = Array.from({ length: clients }, (_, n) => client(n));

  // The rolling restart: each server in turn.
  await sleep(settleMs);
  const restarts: string[] = [];
  for (const [i, name] of ["a", "b"].entries()) {
    const t0 = performance.now();
    await servers[i].stop();
    const stopped = performance.now();
    servers[i] = await start(i);
    const ready = performance.now();
    await proxy.waitForServers([name]);
    restarts.push(
      `${name}: exited ${((stopped - t0) / 1000).toFixed(1)} s after SIGTERM, ready ${((ready - stopped) / 1000).toFixed(1)} s after start, back behind the proxy ${((performance.now() - ready) / 1000).toFixed(1)} s later`,
    );
    await sleep(settleMs);
  }
  running = false;
  await Promise.all(load);

  const duplicated = (
    await db.query<{ n: number }>(
      "select count(*)::int as n from (select milestone_id from disbursements group by milestone_id having count(*) > 1) d",
    )
  ).rows[0].n;
  const released = (await db.query<{ n: number }>("select count(*)::int as n from disbursements")).rows[0].n;
  for (const line of restarts) console.log(`restart ${line}`);
  console.log(
    `requests sent: ${stats.sent} (reads ${stats.reads}, uploads ${stats.uploads}, approvals ${stats.approvals} answered)`,
  );
  console.log(
    `failed: ${stats.failed}${failures.size ? ` (${[...failures].map(([k, v]) => `${k}: ${v}`).join(", ")})` : ""}`,
  );
  console.log(`duplicated releases: ${duplicated} (${released} releases in the database)`);
  if (stats.failed > 0 || duplicated > 0) exitCode = 1;
} finally {
  await db.end();
  await proxy.close();
  await Promise.all(servers.map((s) => s.stop()));
  await s3.close();
  await database.drop();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);
