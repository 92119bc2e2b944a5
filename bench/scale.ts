// Portfolio scale (issue 11): seeds a portfolio, starts one real server process on it, and measures with autocannon
// GET /api/me (the yardstick), each role's dashboard, the first page of each list and a few searches, side by side
// in one run so the machine's noise cancels. It measures twice: first on a small portfolio whose every project the
// demo investor is a member of (--investor-projects projects, ~1,000 milestones at the defaults), then after the
// portfolio has grown to --projects with projects the investor cannot see. Each time it measures the server as it
// ships (the read cache on: repeated reads are served from memory while the database says nothing changed) and with
// READ_CACHE=false (every answer computed afresh, as right after a change). It prints a table with each figure's
// ratio to /api/me and its growth, both ways, and exits 1 when a budget is broken:
//   - every dashboard: ≥ 25 % of /api/me's throughput, p99 ≤ 2× its p99;
//   - every first list page (≤ 50 items, ≤ 100 kB) and search: ≥ 40 % of /api/me's throughput;
//   - growth: each median at the large portfolio within 1.3× of its median at the small one;
//   - embedded PGlite: every dashboard and first list page under 50 ms median, one request at a time, computed afresh.
//
// Run (not in CI: minutes, not seconds):
//   node --import tsx bench/scale.ts [--projects 1000] [--milestones-per-project 10] [--investor-projects 200]
//        [--duration 5] [--connections 32]
// With TEST_DATABASE_URL set it uses a fresh database on that PostgreSQL server (dropped afterwards), else embedded
// PGlite in a temporary directory.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { sql } from "drizzle-orm";
import { openDatabase } from "../apps/server/src/db/client";
import { seedScale } from "../apps/server/src/seed-scale";
import { signIn, startBenchServer, tempPostgres } from "./support";

const { values } = parseArgs({
  options: {
    projects: { type: "string", default: "1000" },
    "milestones-per-project": { type: "string", default: "10" },
    "investor-projects": { type: "string", default: "200" },
    duration: { type: "string", default: "5" },
    connections: { type: "string", default: "32" },
  },
});
const projects = Number(values.projects);
const perProject = Number(values["milestones-per-project"]);
const investorProjects = Math.min(Number(values["investor-projects"]), projects);
const duration = Number(values.duration);
const connections = Number(values.connections);

const BUDGET = { dashboardShare: 0.25, dashboardP99: 2, listShare: 0.4, growth: 1.3, pgliteMedianMs: 50 };
const LIST_MAX_BYTES = 100 * 1024;
const LIST_MAX_ITEMS = 50;

// ---------- the database ----------
let url: string | undefined;
let dataDir: string | undefined;
let cleanup = async () => {};
const server = await tempPostgres("tranche_scale");
if (server) {
  url = server.url;
  cleanup = server.drop;
} else {
  dataDir = mkdtempSync(path.join(tmpdir(), "tranche-scale-"));
  cleanup = async () => rmSync(dataDir as string, { recursive: true, force: true });
}
const kind = url ? "PostgreSQL" : "PGlite";

async function seed(count: number, withInvestor: number) {
  // PGlite is one process's: the server is stopped while the bench writes.
  const database = await openDatabase({ url, dataDir: dataDir && path.join(dataDir, "pglite") });
  try {
    const started = Date.now();
    const result = await seedScale(database.db, {
      projects: count,
      milestonesPerProject: perProject,
      investorProjects: withInvestor,
    });
    await database.db.execute(sql`vacuum analyze`);
    console.log(
      `seeded ${result.projects} projects, ${result.milestones} milestones, ${result.releases} releases in ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
  } finally {
    await database.close();
  }
}

// ---------- the server ----------
async function startServer(readCache: boolean) {
  return startBenchServer({
    databaseUrl: url,
    // PGlite is one process's: the server opens the bench's data directory while the bench is not writing.
    dataDir,
    env: { READ_CACHE: String(readCache) },
  });
}

// ---------- the measurements ----------
type Kind = "base" | "dashboard" | "list" | "search";
interface Target {
  label: string;
  kind: Kind;
  path: string;
  as: "investor" | "owner" | "verifier" | "admin";
}
const targets: Target[] = [
  { label: "GET /api/me (investor)", kind: "base", path: "/api/me", as: "investor" },
  ...(["investor", "owner", "verifier", "admin"] as const).map((as) => ({
    label: `dashboard as ${as}`,
    kind: "dashboard" as const,
    path: "/api/dashboard",
    as,
  })),
  { label: "projects, first page (investor)", kind: "list", path: "/api/projects", as: "investor" },
  { label: "projects, first page (admin)", kind: "list", path: "/api/projects", as: "admin" },
  { label: "projects by next due (investor)", kind: "list", path: "/api/projects?sort=next_due", as: "investor" },
  { label: "milestones, first page (investor)", kind: "list", path: "/api/milestones", as: "investor" },
  { label: "milestones, first page (admin)", kind: "list", path: "/api/milestones", as: "admin" },
  { label: "users, first page", kind: "list", path: "/api/users", as: "admin" },
  { label: "verifiers, first page", kind: "list", path: "/api/verifiers", as: "investor" },
  { label: "notifications, first page", kind: "list", path: "/api/notifications", as: "investor" },
  { label: "reports, first page", kind: "list", path: "/api/reports", as: "admin" },
  { label: "audit, first page", kind: "list", path: "/api/audit", as: "admin" },
  { label: "inbound requests, first page", kind: "list", path: "/api/public-requests", as: "admin" },
  { label: "releases, first page", kind: "list", path: "/api/releases", as: "admin" },
  { label: "search projects 'solar' (admin)", kind: "search", path: "/api/projects?q=solar", as: "admin" },
  {
    label: "search milestones 'permits' (investor)",
    kind: "search",
    path: "/api/milestones?q=permits",
    as: "investor",
  },
  { label: "header search 'lisbon' (admin)", kind: "search", path: "/api/search?q=lisbon", as: "admin" },
];

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  bytes: number;
  items: number | null;
  /** One request at a time: median milliseconds. */
  alone: number;
}

async function measure(base: string, cookies: Record<Target["as"], string>): Promise<Map<string, Figures>> {
  const out = new Map<string, Figures>();
  for (const target of targets) {
    const headers = { cookie: cookies[target.as] };
    const first = await fetch(`${base}${target.path}`, { headers });
    const text = await first.text();
    if (!first.ok) throw new Error(`${target.path} as ${target.as}: ${first.status} ${text.slice(0, 200)}`);
    const body = JSON.parse(text) as { items?: unknown[] };
    const samples: number[] = [];
    for (let i = 0; i < 15; i++) {
      const t0 = performance.now();
      await (await fetch(`${base}${target.path}`, { headers })).arrayBuffer();
      samples.push(performance.now() - t0);
    }
    samples.sort((a, b) => a - b);
    const result = await autocannon({ url: `${base}${target.path}`, connections, duration, headers });
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${target.label}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
    out.set(target.label, {
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      bytes: Buffer.byteLength(text),
      items: Array.isArray(body.items) ? body.items.length : null,
      alone: samples[Math.floor(samples.length / 2)],
    });
  }
  return out;
}

async function phase(readCache: boolean): Promise<Map<string, Figures>> {
  const server = await startServer(readCache);
  try {
    const cookies = {
      investor: await signIn(server.base, "investor@tranche.demo"),
      owner: await signIn(server.base, "owner@tranche.demo"),
      verifier: await signIn(server.base, "verifier@tranche.demo"),
      admin: await signIn(server.base, "admin@tranche.demo"),
    };
    return await measure(server.base, cookies);
  } finally {
    await server.stop();
  }
}

const problems: string[] = [];
try {
  console.log(`${kind}: ${connections} connections, ${duration} s per request`);
  const smallProjects = Math.max(1, investorProjects);
  await seed(smallProjects, investorProjects);
  const small = await phase(true);
  const smallComputed = await phase(false);
  await seed(projects - smallProjects, 0);
  const large = await phase(true);
  const computed = await phase(false);

  const me = large.get(targets[0].label) as Figures;
  const meComputed = computed.get(targets[0].label) as Figures;
  const rows = targets.map((target) => {
    const f = large.get(target.label) as Figures;
    const s = small.get(target.label) as Figures;
    const c = computed.get(target.label) as Figures;
    const sc = smallComputed.get(target.label) as Figures;
    const share = f.rps / me.rps;
    const growth = f.p50 / Math.max(s.p50, 0.001);
    // Computed afresh (READ_CACHE=false): what a read costs right after a change, and how that grows.
    const computedGrowth = c.alone / Math.max(sc.alone, 0.001);
    const fail = (why: string) => problems.push(`${target.label}: ${why}`);
    if (target.kind === "dashboard") {
      if (share < BUDGET.dashboardShare) fail(`${(share * 100).toFixed(0)} % of /api/me's throughput`);
      if (f.p99 > BUDGET.dashboardP99 * me.p99) fail(`p99 ${f.p99} ms > ${BUDGET.dashboardP99}× /api/me's`);
    }
    if (target.kind === "list" || target.kind === "search") {
      if (share < BUDGET.listShare) fail(`${(share * 100).toFixed(0)} % of /api/me's throughput`);
      if (f.bytes > LIST_MAX_BYTES) fail(`first page ${f.bytes} bytes`);
      if (f.items !== null && f.items > LIST_MAX_ITEMS) fail(`first page ${f.items} items`);
    }
    if (target.kind !== "base" && growth > BUDGET.growth)
      fail(`median ${s.p50} → ${f.p50} ms (${growth.toFixed(2)}×) as the portfolio grew`);
    // PGlite's budget holds for an answer computed afresh, not only for a cached one.
    if (!url && (target.kind === "dashboard" || target.kind === "list") && c.alone > BUDGET.pgliteMedianMs)
      fail(`${c.alone.toFixed(1)} ms median computed one at a time (PGlite budget ${BUDGET.pgliteMedianMs} ms)`);
    return {
      request: target.label,
      "req/s": Math.round(f.rps),
      "p50 ms": f.p50,
      "p99 ms": f.p99,
      "× /me": share.toFixed(2),
      "alone ms": Number(f.alone.toFixed(1)),
      kB: Number((f.bytes / 1024).toFixed(1)),
      "small p50": s.p50,
      growth: growth.toFixed(2),
      "computed req/s": Math.round(c.rps),
      "computed × /me": (c.rps / meComputed.rps).toFixed(2),
      "computed alone ms": Number(c.alone.toFixed(1)),
      "computed growth": computedGrowth.toFixed(2),
    };
  });
  console.log(
    `\n${kind}, ${projects} projects × ${perProject} milestones, the demo investor in ${investorProjects} (small: ${smallProjects} projects)`,
  );
  console.table(rows);
  for (const p of problems) console.error(`BUDGET: ${p}`);
  console.log(problems.length ? `${problems.length} budget(s) broken.` : "Every budget holds.");
} finally {
  await cleanup();
}
process.exitCode = problems.length ? 1 : 0;
