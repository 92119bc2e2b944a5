// Dashboards and first list pages as a share of GET /api/me's throughput, with wrk (Debian's `wrk`), one server
// process on PostgreSQL, in three runs side by side:
//   cached    the read cache on, nothing else happening;
//   writes    the read cache on while an unrelated person edits their profile N times a second (--writes);
//   uncached  READ_CACHE=false: every answer computed afresh.
// Budgets (exit 1 when broken): with writes, every dashboard and first list page ≥ 0.35 of /api/me; uncached,
// every dashboard ≥ 0.2 of /api/me.
//
//   TEST_DATABASE_URL=postgres://… node --import tsx bench/ratios.ts --template perf_10k [--duration 5]
//        [--connections 32] [--writes 10] [--runs cached,writes,uncached] [--server-root ../other-checkout]
// --template names a database already holding a portfolio (`npm run cli -- seed-scale --projects 10000
// --milestones-per-project 10 --investor-projects 200` on an empty database); each run works on a copy of it.
// Without it the portfolio is seeded first (--projects, default 10000: about 15 minutes).
import { execFile } from "node:child_process";
import { parseArgs, promisify } from "node:util";
import { sql } from "drizzle-orm";
import { openDatabase } from "../apps/server/src/db/client";
import { seedScale } from "../apps/server/src/seed-scale";
import { type BenchServer, signIn, startBenchServer, tempPostgres } from "./support";

const run = promisify(execFile);
const { values } = parseArgs({
  options: {
    template: { type: "string" },
    projects: { type: "string", default: "10000" },
    duration: { type: "string", default: "5" },
    connections: { type: "string", default: "32" },
    writes: { type: "string", default: "10" },
    runs: { type: "string", default: "cached,writes,uncached" },
    "server-root": { type: "string" },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const writesPerSecond = Number(values.writes);
const runs = (values.runs ?? "").split(",") as ("cached" | "writes" | "uncached")[];
const BUDGET = { withWrites: 0.35, uncachedDashboard: 0.2 };

type Who = "investor" | "owner" | "verifier" | "admin";
interface Target {
  label: string;
  path: string;
  as: Who;
  kind: "base" | "dashboard" | "list";
}
const targets: Target[] = [
  { label: "GET /api/me (investor)", path: "/api/me", as: "investor", kind: "base" },
  ...(["investor", "owner", "verifier", "admin"] as const).map((as) => ({
    label: `dashboard as ${as}`,
    path: "/api/dashboard",
    as,
    kind: "dashboard" as const,
  })),
  { label: "projects, first page (investor)", path: "/api/projects", as: "investor", kind: "list" },
  { label: "projects, first page (admin)", path: "/api/projects", as: "admin", kind: "list" },
  { label: "milestones, first page (investor)", path: "/api/milestones", as: "investor", kind: "list" },
  { label: "milestones, first page (admin)", path: "/api/milestones", as: "admin", kind: "list" },
  { label: "verifier queue", path: "/api/verifications", as: "verifier", kind: "list" },
  { label: "verifiers, first page (admin)", path: "/api/verifiers?sort=name", as: "admin", kind: "list" },
  { label: "notifications, first page (investor)", path: "/api/notifications", as: "investor", kind: "list" },
];

interface Figures {
  rps: number;
  p50: number;
  p99: number;
}

const ms = (text: string) => {
  const m = /^([\d.]+)(us|ms|s)$/.exec(text);
  if (!m) return Number.NaN;
  return Number(m[1]) * (m[2] === "us" ? 0.001 : m[2] === "s" ? 1000 : 1);
};

async function wrk(url: string, cookie: string): Promise<Figures> {
  const { stdout } = await run(
    "wrk",
    ["-t2", `-c${connections}`, `-d${duration}s`, "--latency", "-H", `Cookie: ${cookie}`, url],
    { maxBuffer: 1 << 20 },
  );
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(stdout);
  if (non2xx) throw new Error(`${url}: ${non2xx[1]} answers were not 2xx\n${stdout}`);
  if (/Socket errors/.test(stdout)) throw new Error(`${url}: socket errors\n${stdout}`);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]),
    p50: ms(/\s50%\s+(\S+)/.exec(stdout)?.[1] ?? ""),
    p99: ms(/\s99%\s+(\S+)/.exec(stdout)?.[1] ?? ""),
  };
}

/** Edits an unrelated person's profile `perSecond` times a second until stopped; counts what failed. */
function unrelatedWrites(server: BenchServer, cookie: string, perSecond: number) {
  let n = 0;
  let failed = 0;
  let busy = false;
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      const res = await fetch(`${server.base}/api/me/profile`, {
        method: "PATCH",
        headers: { cookie, "content-type": "application/json", origin: server.base },
        body: JSON.stringify({ name: `Unrelated Writer ${++n}`, organization: "Elsewhere Ltd" }),
      });
      if (!res.ok) failed++;
      await res.arrayBuffer();
    } catch {
      failed++;
    } finally {
      busy = false;
    }
  }, 1000 / perSecond);
  return {
    stop: () => {
      clearInterval(timer);
      return { written: n, failed };
    },
  };
}

async function measure(kind: (typeof runs)[number], databaseUrl: string): Promise<Map<string, Figures>> {
  const server = await startBenchServer({
    databaseUrl,
    root: values["server-root"],
    env: { READ_CACHE: String(kind !== "uncached") },
  });
  try {
    const cookies: Record<Who, string> = {
      investor: await signIn(server.base, "investor@tranche.demo"),
      owner: await signIn(server.base, "owner@tranche.demo"),
      verifier: await signIn(server.base, "verifier@tranche.demo"),
      admin: await signIn(server.base, "admin@tranche.demo"),
    };
    // The unrelated writer: a new project owner, in no project of the people measured.
    const email = `unrelated-${Date.now()}@bench.tranche.test`;
    const signUp = await fetch(`${server.base}/api/auth/sign-up`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.base },
      body: JSON.stringify({ name: "Unrelated Writer", email, password: "unrelated-writer-pass-2025" }),
    });
    if (!signUp.ok) throw new Error(`sign-up: ${signUp.status} ${await signUp.text()}`);
    const writerCookie = await signIn(server.base, email, "unrelated-writer-pass-2025");
    const out = new Map<string, Figures>();
    for (const target of targets) {
      const url = `${server.base}${target.path}`;
      const first = await fetch(url, { headers: { cookie: cookies[target.as] } });
      if (!first.ok) throw new Error(`${target.label}: ${first.status} ${await first.text()}`);
      await first.arrayBuffer();
      const writer = kind === "writes" ? unrelatedWrites(server, writerCookie, writesPerSecond) : null;
      const figures = await wrk(url, cookies[target.as]);
      const wrote = writer?.stop();
      if (wrote && wrote.failed > 0) throw new Error(`${wrote.failed} unrelated writes failed`);
      if (wrote && wrote.written < writesPerSecond * duration * 0.8) {
        console.warn(`${target.label}: only ${wrote.written} writes in ${duration} s (asked ${writesPerSecond}/s)`);
      }
      out.set(target.label, figures);
      console.log(`${kind.padEnd(8)} ${target.label.padEnd(40)} ${Math.round(figures.rps)} req/s`);
    }
    return out;
  } finally {
    await server.stop();
  }
}

const problems: string[] = [];
const results = new Map<string, Map<string, Figures>>();
let seeded: { url: string; drop: () => Promise<void> } | null = null;
try {
  if (!process.env.TEST_DATABASE_URL) throw new Error("set TEST_DATABASE_URL to a PostgreSQL server");
  let template = values.template;
  if (!template) {
    seeded = await tempPostgres("tranche_ratios_seed");
    if (!seeded) throw new Error("no database");
    const database = await openDatabase({ url: seeded.url });
    await seedScale(database.db, {
      projects: Number(values.projects),
      milestonesPerProject: 10,
      investorProjects: 200,
      log: console.log,
    });
    await database.db.execute(sql`vacuum analyze`);
    await database.close();
    template = new URL(seeded.url).pathname.slice(1);
  }
  for (const kind of runs) {
    const copy = await tempPostgres(`tranche_ratios_${kind}`, template);
    if (!copy) throw new Error("no database");
    try {
      results.set(kind, await measure(kind, copy.url));
    } finally {
      await copy.drop();
    }
  }
  const rows = targets.map((target) => {
    const row: Record<string, string | number> = { request: target.label };
    for (const kind of runs) {
      const all = results.get(kind) as Map<string, Figures>;
      const f = all.get(target.label) as Figures;
      const share = f.rps / (all.get(targets[0].label) as Figures).rps;
      row[`${kind} req/s`] = Math.round(f.rps);
      row[`${kind} × /me`] = share.toFixed(2);
      row[`${kind} p99 ms`] = Number(f.p99.toFixed(1));
      if (target.kind === "base") continue;
      if (kind === "writes" && share < BUDGET.withWrites)
        problems.push(`${target.label} with ${writesPerSecond} writes/s: ${share.toFixed(2)} of /api/me`);
      if (kind === "uncached" && target.kind === "dashboard" && share < BUDGET.uncachedDashboard)
        problems.push(`${target.label} uncached: ${share.toFixed(2)} of /api/me`);
    }
    return row;
  });
  console.log(
    `\nwrk -c${connections} -d${duration}s; writes: ${writesPerSecond}/s profile edits by an unrelated person`,
  );
  console.table(rows);
  for (const p of problems) console.error(`BUDGET: ${p}`);
  console.log(problems.length ? `${problems.length} budget(s) broken.` : "Every budget holds.");
} finally {
  await seeded?.drop();
}
process.exitCode = problems.length ? 1 : 0;
