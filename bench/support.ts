// What the server benchmarks share: a real server process on a free port, sign-ins, and a portfolio database on
// the PostgreSQL server in TEST_DATABASE_URL (a copy of a template database when one is named, which takes
// seconds where seeding 10,000 projects takes minutes).
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";

export const repoRoot = path.resolve(import.meta.dirname, "..");
export const DEMO_PASSWORD = "tranche-demo-2025";

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface BenchServer {
  base: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts `apps/server/src/main.ts` of `root` (another checkout measures the code before a change) on a free port;
 * resolves once /api/health answers.
 */
export async function startBenchServer(options: {
  databaseUrl?: string;
  dataDir?: string;
  env?: Record<string, string>;
  root?: string;
  /** A fixed port (a restarted server keeps its place behind a load balancer); default: a free one. */
  port?: number;
}): Promise<BenchServer> {
  const port = options.port ?? (await freePort());
  // BENCH_CPU_PROFILE=DIR: the server writes a V8 CPU profile there when it stops (open it in Chrome's DevTools).
  const profile = process.env.BENCH_CPU_PROFILE
    ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`]
    : [];
  const child = spawn(process.execPath, [...profile, "--import", "tsx", "apps/server/src/main.ts"], {
    cwd: options.root ?? repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      DEMO_DATA: "false",
      SIGNIN_LIMIT_PER_IP: "100000",
      DATA_DIR: options.dataDir ?? mkdtempSync(path.join(tmpdir(), "tranche-bench-files-")),
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      ...options.env,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error("the server exited at start-up");
    if (i > 1200) throw new Error("the server did not start in 2 minutes");
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** Signs in and returns the session cookie, ready for a Cookie header. */
export async function signIn(base: string, email: string, password = DEMO_PASSWORD): Promise<string> {
  const res = await fetch(`${base}/api/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`sign-in as ${email}: ${res.status} ${await res.text()}`);
  return (res.headers.get("set-cookie") ?? "").split(";")[0];
}

/** A fresh database on the PostgreSQL server in TEST_DATABASE_URL, and how to drop it; null without that server. */
export async function tempPostgres(
  prefix: string,
  template?: string,
): Promise<{ url: string; drop: () => Promise<void> } | null> {
  const server = process.env.TEST_DATABASE_URL;
  if (!server) return null;
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${pg.escapeIdentifier(template)}` : ""}`);
  // BENCH_LOG_STATEMENTS=1: PostgreSQL logs every statement of this copy with its duration (its log names the copy),
  // and times its PL/pgSQL functions (triggers included), printed when the copy is dropped.
  const logging = Boolean(process.env.BENCH_LOG_STATEMENTS);
  if (logging) {
    await admin.query(`ALTER DATABASE ${name} SET log_min_duration_statement = 0`);
    await admin.query(`ALTER DATABASE ${name} SET track_functions = 'pl'`);
    console.log(`logging every statement of database ${name}`);
  }
  await admin.end();
  const u = new URL(server);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      if (logging) {
        const own = new pg.Client({ connectionString: u.toString() });
        await own.connect();
        const { rows } = await own.query(
          `select funcname, calls, round(total_time::numeric, 1) as total_ms, round(self_time::numeric, 1) as self_ms,
                  round((total_time / nullif(calls, 0))::numeric, 3) as ms_per_call
           from pg_stat_user_functions order by total_time desc limit 12`,
        );
        console.table(rows);
        await own.end();
      }
      const c = new pg.Client({ connectionString: server });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** The p-th percentile (0–100) of `values`, nearest rank. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** CPU time used so far, in ms: the whole machine's, PostgreSQL's processes' and one process's (its `pid`). */
export interface CpuTimes {
  machine: number;
  postgres: number;
  process: number;
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** A /proc/PID/stat line's CPU ticks: after the command's closing parenthesis, utime and stime are fields 14 and 15. */
function ticksOf(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

/** Read from /proc (Linux); null elsewhere. Per-process figures count only processes alive at both readings. */
export function cpuTimes(pid: number): CpuTimes | null {
  if (!existsSync("/proc/stat")) return null;
  const read = (file: string) => {
    try {
      return readFileSync(file, "utf8");
    } catch {
      return "";
    }
  };
  // cpu user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
  const [user, nice, system, , , irq, softirq, steal] = read("/proc/stat")
    .split("\n")[0]
    .split(/\s+/)
    .slice(1)
    .map(Number);
  let postgres = 0;
  for (const entry of readdirSync("/proc")) {
    if (/^\d+$/.test(entry) && read(`/proc/${entry}/comm`).trim() === "postgres") {
      postgres += ticksOf(read(`/proc/${entry}/stat`));
    }
  }
  const own = read(`/proc/${pid}/stat`);
  return {
    machine: (user + nice + system + irq + softirq + steal) * TICK_MS,
    postgres: postgres * TICK_MS,
    process: own ? ticksOf(own) * TICK_MS : 0,
  };
}

/**
 * Waits until the machine is nearly idle (under `threshold` of all its cores busy over a second), for at most
 * `maxWaitMs`, and says how busy it was at the last look and which processes kept it busy. A timing taken while
 * another process holds a core (a test server still stopping, autovacuum, a compile) measures that process too.
 */
export async function waitForQuietHost(
  maxWaitMs = 60_000,
  threshold = 0.15,
): Promise<{ waitedMs: number; busy: number; busiest: string[] }> {
  const cores = availableParallelism();
  const started = Date.now();
  let busy = 0;
  for (;;) {
    const before = cpuTimes(process.pid);
    if (!before) return { waitedMs: 0, busy: 0, busiest: [] };
    const processesBefore = processTicks();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const after = cpuTimes(process.pid) as CpuTimes;
    busy = (after.machine - before.machine) / (1000 * cores);
    const waitedMs = Date.now() - started - 1000;
    if (busy < threshold || waitedMs >= maxWaitMs) {
      const processesAfter = processTicks();
      const busiest = [...processesAfter]
        .map(([pid, { comm, ticks }]) => ({ comm, ms: (ticks - (processesBefore.get(pid)?.ticks ?? ticks)) * TICK_MS }))
        .filter((p) => p.ms >= 50)
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 3)
        .map((p) => `${p.comm} ${p.ms} ms`);
      return { waitedMs: Math.max(0, waitedMs), busy, busiest };
    }
  }
}

/** Every live process's CPU ticks (user + system) and command name. */
function processTicks(): Map<string, { comm: string; ticks: number }> {
  const ticks = new Map<string, { comm: string; ticks: number }>();
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      ticks.set(pid, { comm: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), ticks: ticksOf(stat) });
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return ticks;
}
