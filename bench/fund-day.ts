// A fund's working day, compressed: one server process on PostgreSQL with a 10,000-project portfolio, 200 people
// (investors, owners, verifiers and admins in the demo data's proportions: 1 : 1 : 3 : 1) each opening their
// screens one after another with think time between them (every call a screen makes, at once, as the web app
// does), while writes arrive at --writes a second spread over the portfolio: approvals, evidence uploads, milestone
// edits and notifications marked read. It reports p50/p95/p99 per route (by pattern), errors, the read cache's
// hit rate (from /metrics) and the CPU the database and the server used. Goals (exit 1 when broken): p95 ≤ 150 ms
// for every route a screen calls, and no errors.
//
//   TEST_DATABASE_URL=postgres://… npm run bench:fund-day -- --template perf_10k [--duration 60] [--people 200]
//        [--think-ms 5000] [--writes 5] [--server-root ../other-checkout] [--read-cache false]
// --template names a database holding a seed-scale portfolio (see bench/ratios.ts); the run works on a copy.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import pg from "pg";
import { percentile, signIn, startBenchServer, tempPostgres } from "./support";

const { values } = parseArgs({
  options: {
    template: { type: "string" },
    duration: { type: "string", default: "60" },
    people: { type: "string", default: "200" },
    "think-ms": { type: "string", default: "5000" },
    writes: { type: "string", default: "5" },
    "server-root": { type: "string" },
    "read-cache": { type: "string", default: "true" },
  },
});
const durationMs = Number(values.duration) * 1000;
const peopleCount = Number(values.people);
const thinkMs = Number(values["think-ms"]);
const writesPerSecond = Number(values.writes);
const GOAL_P95_MS = 150;
const METRICS_TOKEN = "fund-day-metrics-token-0123456789";

type Role = "investor" | "project_owner" | "verifier" | "admin";
const PROPORTIONS: [Role, number][] = [
  ["investor", 1],
  ["project_owner", 1],
  ["verifier", 3],
  ["admin", 1],
];

// ---------- what was seen ----------
const samples = new Map<string, number[]>();
const errors = new Map<string, number>();
let writesDone = 0;
const writeErrors = new Map<string, number>();
const pattern = (path: string) =>
  path.replace(/\?.*$/, "").replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, ":id");

interface Session {
  base: string;
  cookie: string;
}

async function call(s: Session, path: string, init: RequestInit = {}, record = true): Promise<Response | null> {
  const method = init.method ?? "GET";
  const route = `${method} ${pattern(path)}`;
  const started = performance.now();
  try {
    const res = await fetch(`${s.base}${path}`, {
      ...init,
      headers: { cookie: s.cookie, origin: s.base, ...(init.headers ?? {}) },
    });
    const body = await res.arrayBuffer();
    const took = performance.now() - started;
    if (record) {
      if (!samples.has(route)) samples.set(route, []);
      samples.get(route)?.push(took);
      if (!res.ok) {
        errors.set(route, (errors.get(route) ?? 0) + 1);
        if ((errors.get(route) ?? 0) <= 3)
          console.error(`${route}: ${res.status} ${Buffer.from(body).toString().slice(0, 200)}`);
      }
    }
    return new Response(body, { status: res.status, headers: res.headers });
  } catch (err) {
    if (record) errors.set(route, (errors.get(route) ?? 0) + 1);
    console.error(`${route}: ${(err as Error).message}`);
    return null;
  }
}

const json = async <T>(res: Response | null): Promise<T> => (res ? ((await res.json()) as T) : ({} as T));
const pick = <T>(items: T[]): T | undefined => items[Math.floor(Math.random() * items.length)];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Think time: exponential around the mean, as people's pauses are. */
const think = () => sleep(Math.min(thinkMs * 5, -Math.log(1 - Math.random()) * thinkMs));

// ---------- screens: every call each screen makes at once ----------
type Screen = (s: Session, ids: Ids) => string[];
interface Ids {
  projects: string[];
  milestones: string[];
}
const always = ["/api/notifications/unread-count"];
const SCREENS: Record<Role, Screen[]> = {
  investor: [
    () => ["/api/dashboard"],
    () => ["/api/projects?sort=newest", "/api/projects/counts"],
    (_, ids) => (ids.projects.length ? [`/api/projects/${pick(ids.projects)}`] : ["/api/projects"]),
    () => ["/api/milestones?sort=due", "/api/milestones/counts"],
    () => ["/api/analytics", "/api/reports?sort=newest"],
    () => ["/api/notifications?limit=30"],
  ],
  project_owner: [
    () => ["/api/dashboard"],
    () => ["/api/projects?sort=newest", "/api/projects/counts"],
    (_, ids) => (ids.projects.length ? [`/api/projects/${pick(ids.projects)}`] : ["/api/projects"]),
    (_, ids) => {
      const id = pick(ids.milestones);
      return id ? [`/api/milestones/${id}`, `/api/milestones/${id}/evidence`] : ["/api/milestones"];
    },
    () => ["/api/notifications?limit=30"],
  ],
  verifier: [
    () => ["/api/dashboard"],
    () => ["/api/verifications"],
    (_, ids) => {
      const id = pick(ids.milestones);
      return id ? [`/api/milestones/${id}`, `/api/milestones/${id}/evidence`] : ["/api/milestones"];
    },
    () => ["/api/reports?sort=newest"],
    // The verifiers directory is for investors and admins; a verifier's own history is the completed list.
    () => ["/api/verifications/completed"],
  ],
  admin: [
    () => ["/api/dashboard"],
    () => ["/api/users?sort=name"],
    () => ["/api/projects?sort=newest", "/api/projects/counts"],
    () => ["/api/milestones?sort=due", "/api/milestones/counts"],
    () => ["/api/verifiers?sort=name"],
    () => ["/api/audit"],
    () => ["/api/releases"],
  ],
};

async function person(s: Session, role: Role, until: number) {
  const ids: Ids = {
    projects:
      (await json<{ items?: { id: string }[] }>(await call(s, "/api/projects?limit=25", {}, false))).items?.map(
        (p) => p.id,
      ) ?? [],
    milestones:
      (await json<{ items?: { id: string }[] }>(await call(s, "/api/milestones?limit=25", {}, false))).items?.map(
        (m) => m.id,
      ) ?? [],
  };
  await sleep(Math.random() * thinkMs);
  while (Date.now() < until) {
    const screen = pick(SCREENS[role]) as Screen;
    await Promise.all([...screen(s, ids), ...always].map((path) => call(s, path)));
    await think();
  }
}

// ---------- writes spread over the portfolio ----------
interface Writers {
  verifiers: { session: Session; milestones: string[] }[];
  owners: { session: Session; milestones: string[] }[];
  readers: Session[];
}

async function write(w: Writers, n: number): Promise<void> {
  const kind = ["approve", "upload", "edit", "read"][n % 4];
  // Each kind's own count picks the writer, so every writer takes turns (n itself steps by four within a kind: with
  // 40 verifiers only every fourth would approve, and one with few milestones ran out).
  const turn = Math.floor(n / 4);
  const note = (ok: boolean) => {
    if (ok) writesDone++;
    else writeErrors.set(kind, (writeErrors.get(kind) ?? 0) + 1);
  };
  if (kind === "approve") {
    const v = w.verifiers[turn % w.verifiers.length];
    const id = v?.milestones.pop();
    if (!v || !id) return note(false);
    const res = await call(v.session, `/api/milestones/${id}/approve`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ comments: "Checked on site." }),
    });
    // Released, or recorded while the project's rule waits for another approval.
    return note(res?.ok === true);
  }
  const o = w.owners[turn % w.owners.length];
  const id = o ? pick(o.milestones) : undefined;
  if (kind === "upload") {
    if (!o || !id) return note(false);
    const form = new FormData();
    form.append("files", new Blob([`Invoice ${n} ${Date.now()}\n`], { type: "text/plain" }), `invoice-${n}.txt`);
    const res = await call(o.session, `/api/milestones/${id}/evidence`, { method: "POST", body: form });
    return note(res?.status === 201);
  }
  if (kind === "edit") {
    if (!o || !id) return note(false);
    const res = await call(o.session, `/api/milestones/${id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ description: `Scope confirmed with the site team, revision ${n}.` }),
    });
    return note(res?.status === 200);
  }
  const reader = w.readers[turn % w.readers.length];
  const res = await call(reader, "/api/notifications/read-all", { method: "POST" });
  note(res?.status === 200 || res?.status === 204);
}

// ---------- CPU of the database's backends and of the server ----------
function cpuSeconds(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks of 1/100 s
  } catch {
    return null;
  }
}

function cpuSampler(databaseUrl: string, dbName: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  const last = new Map<number, number>();
  let total = 0;
  let timer: NodeJS.Timeout | undefined;
  const sample = async () => {
    const { rows } = await client.query<{ pid: number }>(
      "select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
      [dbName],
    );
    for (const { pid } of rows) {
      const now = cpuSeconds(pid);
      if (now === null) continue;
      const before = last.get(pid);
      if (before !== undefined) total += now - before;
      last.set(pid, now);
    }
  };
  return {
    async start() {
      await client.connect();
      await sample();
      timer = setInterval(() => void sample().catch(() => {}), 500);
    },
    async stop() {
      clearInterval(timer);
      await sample();
      await client.end();
      return total;
    },
  };
}

// ---------- the run ----------
const problems: string[] = [];
const copy = await tempPostgres("tranche_fund_day", values.template);
if (!copy || !values.template) throw new Error("set TEST_DATABASE_URL and --template (a seed-scale database)");
try {
  const server = await startBenchServer({
    databaseUrl: copy.url,
    root: values["server-root"],
    env: {
      READ_CACHE: values["read-cache"] ?? "true",
      METRICS_TOKEN,
      MFA_REQUIRED_ROLES: "none",
      // The writes' webhooks and emails wait in the outbox as they would for a custodian; none is registered.
      LOG_LEVEL: "error",
    },
  });
  try {
    const db = new pg.Client({ connectionString: copy.url });
    await db.connect();
    const accounts = async (role: Role, limit: number) =>
      (
        await db.query<{ email: string }>(
          "select email from users where role = $1 order by email like '%tranche.demo' desc, email limit $2",
          [role, limit],
        )
      ).rows.map((r) => r.email);
    const total = PROPORTIONS.reduce((n, [, w]) => n + w, 0);
    const people: { role: Role; email: string }[] = [];
    for (const [role, weight] of PROPORTIONS) {
      const count = Math.round((peopleCount * weight) / total);
      const pool = await accounts(role, count);
      for (let i = 0; i < count; i++) people.push({ role, email: pool[i % pool.length] });
    }
    // Writers: verifiers with milestones in verification assigned to them (ten at least, so that none runs out in a
    // long run), owners with open milestones, spread over the portfolio.
    const assigned = await db.query<{ email: string; ids: string[] }>(
      `select u.email, array_agg(m.id order by m.due_date) as ids from milestones m join users u on u.id = m.verifier_id
       where m.status = 'in_verification' group by u.email having count(*) >= 10 order by random() limit 40`,
    );
    const owned = await db.query<{ email: string; ids: string[] }>(
      `select u.email, array_agg(m.id) as ids from milestones m
       join project_members pm on pm.project_id = m.project_id and pm.role = 'owner' join users u on u.id = pm.user_id
       where m.status = 'pending' group by u.email order by random() limit 40`,
    );
    await db.end();

    const session = async (email: string): Promise<Session> => ({
      base: server.base,
      cookie: await signIn(server.base, email),
    });
    const sessions: Session[] = [];
    for (const p of people) sessions.push(await session(p.email));
    const writers: Writers = {
      verifiers: await Promise.all(
        assigned.rows.map(async (r) => ({ session: await session(r.email), milestones: r.ids })),
      ),
      owners: await Promise.all(owned.rows.map(async (r) => ({ session: await session(r.email), milestones: r.ids }))),
      readers: sessions,
    };
    const scrape = async () =>
      (await fetch(`${server.base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    const cacheCount = (text: string, result: string) =>
      Number(new RegExp(`tranche_read_cache_requests_total\\{result="${result}"\\} (\\S+)`).exec(text)?.[1] ?? 0);
    const before = await scrape();

    console.log(
      `${people.length} people (${PROPORTIONS.map(([r]) => `${people.filter((p) => p.role === r).length} ${r}`).join(", ")}), think ${thinkMs} ms, ${writesPerSecond} writes/s, ${durationMs / 1000} s`,
    );
    const cpu = cpuSampler(copy.url, new URL(copy.url).pathname.slice(1));
    await cpu.start();
    const serverCpuBefore = cpuSeconds(server.child.pid as number) ?? 0;
    const started = Date.now();
    const until = started + durationMs;
    let n = 0;
    const writing = setInterval(() => void write(writers, n++), 1000 / writesPerSecond);
    await Promise.all(people.map((p, i) => person(sessions[i], p.role, until)));
    clearInterval(writing);
    const wall = (Date.now() - started) / 1000;
    const dbCpu = await cpu.stop();
    const serverCpu = (cpuSeconds(server.child.pid as number) ?? 0) - serverCpuBefore;
    const after = await scrape();

    const rows = [...samples.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([route, times]) => {
        const p95 = percentile(times, 95);
        const isScreen = route.startsWith("GET ");
        if (isScreen && p95 > GOAL_P95_MS) problems.push(`${route}: p95 ${p95.toFixed(0)} ms`);
        return {
          route,
          requests: times.length,
          "p50 ms": Number(percentile(times, 50).toFixed(1)),
          "p95 ms": Number(p95.toFixed(1)),
          "p99 ms": Number(percentile(times, 99).toFixed(1)),
          errors: errors.get(route) ?? 0,
        };
      });
    console.table(rows);
    const hits = cacheCount(after, "hit") - cacheCount(before, "hit");
    const misses = cacheCount(after, "miss") - cacheCount(before, "miss");
    const requests = rows.reduce((sum, r) => sum + r.requests, 0);
    const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
    console.log(
      `requests: ${requests} in ${wall.toFixed(0)} s (${(requests / wall).toFixed(0)}/s), errors: ${errorCount}`,
    );
    console.log(
      `writes: ${writesDone} done (${(writesDone / wall).toFixed(1)}/s)${writeErrors.size ? `, failed: ${JSON.stringify(Object.fromEntries(writeErrors))}` : ""}`,
    );
    console.log(
      `read cache: ${hits} hits, ${misses} misses, hit rate ${((hits / Math.max(1, hits + misses)) * 100).toFixed(1)} %`,
    );
    console.log(
      `CPU: database ${(dbCpu / wall).toFixed(2)} cores (${dbCpu.toFixed(1)} s), server ${(serverCpu / wall).toFixed(2)} cores (${serverCpu.toFixed(1)} s)`,
    );
    if (errorCount > 0) problems.push(`${errorCount} errors`);
  } finally {
    await server.stop();
  }
} finally {
  await copy.drop();
}
for (const p of problems) console.error(`GOAL: ${p}`);
console.log(problems.length ? `${problems.length} goal(s) missed.` : "Every goal holds.");
process.exitCode = problems.length ? 1 : 0;
