// GET /metrics (lib/metrics.ts, routes/metrics.ts): never public, and after real requests it shows what an operator
// needs: durations by route pattern and status, the pool, the outbox backlog and its age, webhook outcomes, open
// event streams, read-cache hits and misses, event-loop lag.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookEndpoints } from "../src/db/schema";
import { publishEvent } from "../src/services/outbox/outbox";
import { createOutboxWorker } from "../src/services/outbox/worker";
import { webhookTopics } from "../src/services/webhooks/deliveries";
import { makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser, usePostgres } from "./harness";
import { readEvents } from "./sse";
import { type Receiver, startReceiver } from "./webhook-receiver";

const TOKEN = "metrics-token-for-the-test-0123456789";

let t: TestApp;
let admin: TestUser;
let investor: TestUser;
let project: { id: string };

beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN, WEBHOOK_ALLOW_PRIVATE: true });
  [admin, investor] = await Promise.all([t.user("admin"), t.user("investor")]);
  const owner = await t.user("project_owner");
  project = await makeProject(t, { owner, investors: [investor] });
});
afterAll(() => t.close());

async function scrape(): Promise<string> {
  const res = await t.app.request("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/plain");
  return res.text();
}

/** The value of one sample: its name and exactly these labels (in any order). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.keys(found).length !== Object.keys(labels).length) continue;
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}

describe("GET /metrics", () => {
  it("is not public: 404 without a token configured, 401 without the right one", async () => {
    const closed = await createTestApp();
    try {
      const res = await closed.app.request("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("not_found");
    } finally {
      await closed.close();
    }
    const none = await t.app.request("/metrics");
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toContain("Bearer");
    const wrong = await t.app.request("/metrics", { headers: { authorization: "Bearer not-the-token-at-all" } });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain("tranche_");
  });

  it("times requests by route pattern and status, never by raw URL", async () => {
    for (let i = 0; i < 3; i++) {
      expect((await t.request("GET", `/api/projects/${project.id}`, { as: investor })).status).toBe(200);
    }
    const missing = "00000000-0000-4000-8000-000000000000";
    expect((await t.request("GET", `/api/projects/${missing}`, { as: investor })).status).toBe(404);
    expect((await t.request("GET", "/api/me")).status).toBe(401);
    const text = await scrape();
    const count = (route: string, status: string) =>
      sample(text, "tranche_http_request_duration_seconds_count", { method: "GET", route, status });
    expect(count("/api/projects/:id", "200")).toBe(3);
    expect(count("/api/projects/:id", "404")).toBe(1);
    expect(count("/api/me", "401")).toBe(1);
    expect(text).not.toContain(project.id);
    expect(
      sample(text, "tranche_http_request_duration_seconds_bucket", {
        method: "GET",
        route: "/api/projects/:id",
        status: "200",
        le: "+Inf",
      }),
    ).toBe(3);
  });

  it("counts read-cache hits and misses", async () => {
    const before = await scrape();
    await t.request("GET", "/api/dashboard", { as: investor });
    await t.request("GET", "/api/dashboard", { as: investor });
    const after = await scrape();
    const delta = (result: string) =>
      (sample(after, "tranche_read_cache_requests_total", { result }) ?? 0) -
      (sample(before, "tranche_read_cache_requests_total", { result }) ?? 0);
    expect(delta("miss")).toBe(1);
    expect(delta("hit")).toBe(1);
  });

  it("shows the database pool, open event streams and event-loop lag", async () => {
    const stream = await t.app.request("/api/events", { headers: { cookie: investor.cookie } });
    expect(stream.status).toBe(200);
    const events = readEvents(stream);
    try {
      const text = await scrape();
      expect(sample(text, "tranche_event_streams_open")).toBe(1);
      // The scrape's own outbox query may hold (or, opening a connection, wait for) one.
      expect(sample(text, "tranche_db_pool_waiting")).toBeLessThanOrEqual(1);
      expect(sample(text, "tranche_db_pool_connections_in_use")).toBeGreaterThanOrEqual(0);
      // PostgreSQL: a pool of connections, some open by now; embedded: its one.
      const open = sample(text, "tranche_db_pool_connections") ?? 0;
      if (usePostgres) expect(open).toBeGreaterThanOrEqual(1);
      else expect(open).toBe(1);
      expect(sample(text, "nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);
    } finally {
      await events.close();
    }
  });

  it("shows the outbox backlog and the age of its oldest due job, then webhook outcomes", async () => {
    const good = await startReceiver();
    const bad: Receiver = await startReceiver((_, res) => {
      res.statusCode = 500;
      res.end("no");
    });
    try {
      for (const receiver of [good, bad]) {
        const res = await t.request("POST", "/api/webhook-endpoints", {
          as: admin,
          body: { url: `${receiver.url}/hook`, events: ["project.created"], description: "Metrics" },
        });
        expect(res.status).toBe(201);
      }
      await t.deps.db.transaction((tx) => publishEvent(tx, "project.created", { project: { name: "Counted" } }));
      await t.deps.db.execute(sql`update outbox set run_at = now() - interval '30 seconds' where status = 'pending'`);
      const waiting = await scrape();
      expect(sample(waiting, "tranche_outbox_backlog", { topic: "event" })).toBe(1);
      expect(sample(waiting, "tranche_outbox_oldest_due_age_seconds")).toBeGreaterThanOrEqual(29);

      const worker = createOutboxWorker(t.deps, webhookTopics(t.deps));
      await worker.drain();
      const after = await scrape();
      expect(sample(after, "tranche_outbox_backlog", { topic: "event" })).toBeUndefined();
      expect(sample(after, "tranche_webhook_deliveries_total", { outcome: "delivered" })).toBe(1);
      expect(sample(after, "tranche_webhook_deliveries_total", { outcome: "failed" })).toBe(1);
      expect(sample(after, "tranche_webhook_deliveries_total", { outcome: "dead" })).toBe(0);
      // The failed one waits for its retry: not yet due, so not backlog.
      expect(sample(after, "tranche_outbox_oldest_due_age_seconds")).toBe(0);
    } finally {
      await t.deps.db.delete(webhookEndpoints);
      await good.close();
      await bad.close();
    }
  });
});
