// What a PostgreSQL restart, failover or idle-connection reaper does to a running server: every one of its
// connections is terminated (pg_terminate_backend). Reads retry and succeed, writes answer 503 or commit
// whole, and realtime reconnects and delivers what was committed while it was down.
import { count, eq, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disbursements, milestones } from "../src/db/schema";
import { notify } from "../src/services/notifications/notify";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp } from "./harness";
import { readEvents, waitFor } from "./sse";

let t: TestApp;
let admin: pg.Client;
let databaseName: string;

beforeAll(async () => {
  // Short reconnect delays and heartbeats keep the test quick; the defaults are 1, 2, 5, 10 s and 30 s.
  t = await createTestApp({ REALTIME_RECONNECT_DELAYS_MS: [300, 600], SSE_HEARTBEAT_MS: 200 });
  databaseName = new URL(t.deps.env.DATABASE_URL as string).pathname.slice(1);
  admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
});
afterAll(async () => {
  await admin.end();
  await t.close();
});

/** Ends every connection the server holds to its database, as a restart or failover would. */
async function terminateServerConnections(): Promise<number> {
  const { rows } = await admin.query(
    "select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
    [databaseName],
  );
  return rows.length;
}

const health = () => t.request("GET", "/api/health");

/**
 * The test's own write, retried while it lands on a pooled connection the server has just terminated (the pool
 * drops such a connection only when its socket closes). Nothing was written when BEGIN itself failed.
 */
async function writeAfterTermination(write: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await write();
      return;
    } catch (err) {
      const text = `${err instanceof Error ? err.message : err} ${(err as { cause?: Error }).cause?.message ?? ""}`;
      if (attempt >= 10 || !/terminat/i.test(text)) throw err;
    }
  }
}

describe("database connections terminated under load", () => {
  it("answers a burst of reads with no 5xx", async () => {
    const user = await t.user("investor");
    const statuses: number[] = [];
    for (let round = 0; round < 5; round++) {
      const burst = Array.from({ length: 16 }, () => t.request("GET", "/api/me", { as: user }));
      const burst2 = Array.from({ length: 16 }, () => t.request("GET", "/api/dashboard", { as: user }));
      await new Promise((resolve) => setTimeout(resolve, 2 + round));
      expect(await terminateServerConnections()).toBeGreaterThan(0);
      statuses.push(...(await Promise.all([...burst, ...burst2])).map((r) => r.status));
    }
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.every((s) => s === 200)).toBe(true);
  });

  it("releases each milestone of a burst of approvals once or not at all, answering 200, 409 or 503", async () => {
    const owner = await t.user("project_owner");
    const verifier = await t.user("verifier");
    const project = await makeProject(t, { owner, verifiers: [verifier], totalCapital: 10_000_000 });
    const batch = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        makeMilestone(t, project, { status: "in_verification", verifier, capitalAmount: 10_000 + i, title: `M${i}` }),
      ),
    );
    const approvals = batch.flatMap((m) =>
      [0, 1, 2].map(() =>
        t.request("POST", `/api/milestones/${m.id}/approve`, { as: verifier, body: { comments: "Checked on site." } }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    await terminateServerConnections();
    const responses = await Promise.all(approvals);

    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => ![200, 409, 503].includes(s))).toEqual([]);
    for (const refused of responses.filter((r) => r.status === 503)) {
      expect(refused.body.error.code).toBe("database_unavailable");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    for (const m of batch) {
      const [row] = await t.deps.db.select().from(milestones).where(eq(milestones.id, m.id));
      const [{ releases }] = await t.deps.db
        .select({ releases: count() })
        .from(disbursements)
        .where(eq(disbursements.milestoneId, m.id));
      // Fully committed once, or not at all: status and release agree.
      expect(releases).toBe(row.status === "verified" ? 1 : 0);
      expect(["verified", "in_verification"]).toContain(row.status);
    }
    // Retrying what was refused finishes the job, still once per milestone.
    for (const m of batch) {
      const retry = await t.request("POST", `/api/milestones/${m.id}/approve`, { as: verifier, body: {} });
      expect([200, 409]).toContain(retry.status);
    }
    const [{ total }] = await t.deps.db
      .select({ total: count() })
      .from(disbursements)
      .where(eq(disbursements.projectId, project.id));
    expect(total).toBe(batch.length);
  });
});

describe("a connection terminated inside a transaction", () => {
  it("fails that transaction only: no uncaught error, and the next request is served", async () => {
    // Between two statements the transaction's client is checked out of the pool, with no listener of the
    // pool's: pg's "error" event on it must not become an uncaught exception (it would end the process).
    const transaction = t.deps.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await terminateServerConnections();
      await new Promise((resolve) => setTimeout(resolve, 200));
      await tx.execute(sql`select 1`);
    });
    await expect(transaction).rejects.toThrow();
    const user = await t.user("investor");
    expect((await t.request("GET", "/api/me", { as: user })).status).toBe(200);
  });
});

describe("realtime after the LISTEN connection drops", () => {
  it("reconnects, reports it on /api/health, and delivers what was committed during and after the outage", async () => {
    // The burst above may have cut the listener too: start from a listening state.
    await waitFor(() => t.deps.realtime.status() === "listening", 10_000);
    const user = await t.user("investor");
    const stream = readEvents(await t.app.request("/api/events", { headers: { cookie: user.cookie } }));
    await waitFor(() => stream.comments.includes("connected"));
    expect((await health()).body.realtime).toBe("listening");

    await terminateServerConnections();
    await waitFor(() => t.deps.realtime.status() === "reconnecting", 2000);
    expect((await health()).body.realtime).toBe("reconnecting");
    // The open stream is told, so the browser can say "Reconnecting…".
    await waitFor(() => stream.events.some((e) => e.event === "status" && e.data.includes("reconnecting")), 2000);

    // Committed while nobody listens: PostgreSQL drops this NOTIFY.
    await writeAfterTermination(() =>
      t.deps.db.transaction((tx) =>
        notify(tx, [user.id], { title: "During", message: "Sent during the outage.", category: "account" }),
      ),
    );

    await waitFor(() => t.deps.realtime.status() === "listening", 5000);
    expect((await health()).body.realtime).toBe("listening");
    const started = Date.now();
    await writeAfterTermination(() =>
      t.deps.db.transaction((tx) =>
        notify(tx, [user.id], { title: "After", message: "Sent after recovery.", category: "account" }),
      ),
    );
    const titles = () => stream.events.filter((e) => e.event === "notification").map((e) => JSON.parse(e.data).title);
    await waitFor(() => titles().includes("After") && titles().includes("During"), 5000);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(titles()).toEqual(["During", "After"]);
    expect(stream.events.some((e) => e.event === "status" && e.data.includes("listening"))).toBe(true);
    await stream.close();
  });

  it("keeps retrying while the database refuses connections, on the configured delays", async () => {
    // Block new connections to this database, drop the current ones, and let the listener fail a few times.
    await admin.query(`alter database ${pg.escapeIdentifier(databaseName)} with allow_connections false`);
    try {
      await terminateServerConnections();
      await waitFor(() => t.deps.realtime.status() === "reconnecting", 2000);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(t.deps.realtime.status()).toBe("reconnecting");
      const during = await health();
      expect(during.status).toBe(503);
    } finally {
      await admin.query(`alter database ${pg.escapeIdentifier(databaseName)} with allow_connections true`);
    }
    // The last delay (600 ms) repeats until the database answers again.
    await waitFor(() => t.deps.realtime.status() === "listening", 3000);
    expect((await health()).status).toBe(200);
  });
});
