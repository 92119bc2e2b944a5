// Does a dashboard's cost grow with projects the caller cannot see? Times GET /api/dashboard for an investor
// with 5 projects, then again after adding thousands of projects they are not part of.
// Run: node --import tsx bench/dashboard-scaling.ts [others=5000]
// Uses the PostgreSQL server in TEST_DATABASE_URL (a temporary database, dropped afterwards), else embedded PGlite.
import { sql } from "drizzle-orm";
import { createApp } from "../apps/server/src/app";
import { cookieName, createSession } from "../apps/server/src/auth/sessions";
import { openDatabase } from "../apps/server/src/db/client";
import { users } from "../apps/server/src/db/schema";
import { testEnv } from "../apps/server/src/env";
import { createLogger } from "../apps/server/src/lib/logger";
import { createRealtime } from "../apps/server/src/realtime/hub";
import { tempPostgres } from "./support";

const others = Number(process.argv[2] ?? 5000);
const RATIO_BUDGET = 2;

const server = await tempPostgres("tranche_bench");
const url = server?.url;
const drop = server?.drop ?? (async () => {});

const env = testEnv({ DATABASE_URL: url });
const database = await openDatabase({ url });
const logger = createLogger(env);
const realtime = await createRealtime(database, logger);
const app = createApp({ env, database, db: database.db, logger, realtime });
const db = database.db;

const [investor] = await db
  .insert(users)
  .values({ email: "lp@example.test", name: "LP", role: "investor", passwordHash: "x" })
  .returning();
const [owner] = await db
  .insert(users)
  .values({ email: "owner@example.test", name: "Owner", role: "project_owner", passwordHash: "x" })
  .returning();
const { token } = await createSession(db, investor.id, {});
const cookie = `${cookieName(env)}=${token}`;

/** n projects owned by `owner`, 4 milestones each in mixed statuses; the investor joins them when asked. */
async function addProjects(n: number, withInvestor: boolean) {
  await db.execute(sql`
    with p as (
      insert into projects (name, description, location, total_capital, currency, created_by)
      select 'Project ' || g, 'Bench project', 'Somewhere', 1000000, 'USD', ${owner.id}
      from generate_series(1, ${n}) g returning id
    ), m as (
      insert into milestones (project_id, title, description, due_date, capital_amount, status)
      select p.id, 'Milestone ' || k, 'Bench milestone', current_date + k * 30, 100000,
        (array['pending','in_verification','rejected','delayed'])[k]
      from p, generate_series(1, 4) k returning project_id
    ), o as (
      insert into project_members (project_id, user_id, role) select id, ${owner.id}, 'owner' from p returning 1
    )
    insert into project_members (project_id, user_id, role)
    select id, ${investor.id}, 'investor' from p where ${withInvestor}`);
  await db.execute(sql`analyze`);
}

async function time(label: string, rounds = 40): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < rounds + 5; i++) {
    const t0 = performance.now();
    const res = await app.request("/api/dashboard", { headers: { cookie } });
    if (res.status !== 200) throw new Error(`dashboard answered ${res.status}`);
    await res.arrayBuffer();
    if (i >= 5) samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)];
  console.log(
    `${label}: median ${median.toFixed(2)} ms, p90 ${samples[Math.floor(samples.length * 0.9)].toFixed(2)} ms`,
  );
  return median;
}

try {
  await addProjects(5, true);
  const small = await time(`${database.kind}: investor with 5 projects, 5 projects in all`);
  await addProjects(others, false);
  const large = await time(`${database.kind}: investor with 5 projects, ${others + 5} projects in all`);
  const ratio = large / small;
  console.log(`ratio ${ratio.toFixed(2)} (budget ${RATIO_BUDGET})`);
  process.exitCode = ratio <= RATIO_BUDGET ? 0 : 1;
} finally {
  await realtime.close();
  await database.close();
  await drop();
}
