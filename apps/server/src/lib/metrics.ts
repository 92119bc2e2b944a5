// What an operator watches, in Prometheus's text format (prom-client): request durations by route pattern and
// status, the database pool, the outbox backlog and the age of its oldest due job, webhook deliveries by outcome,
// open event streams, read-cache hits and misses, and the process's own figures (event-loop lag among them).
// One registry per app, so several apps in one process (tests) never share counters. Figures that live in the
// database (the outbox) are read when Prometheus scrapes, never on a request's path.
import { sql } from "drizzle-orm";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { Database } from "../db/client";
import { queryRows } from "../db/client";
import type { Realtime } from "../realtime/hub";

/** How a webhook attempt ended: delivered (2xx), failed (retried later), refused (address not allowed), dead. */
export type WebhookOutcome = "delivered" | "failed" | "refused" | "dead";
export type ReadCacheResult = "hit" | "miss" | "bypass";

export interface Metrics {
  registry: Registry;
  /** One answered request: its method, matched route pattern (never the raw URL) and status. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  webhookDelivery(outcome: WebhookOutcome): void;
  readCache(result: ReadCacheResult): void;
  /** The figures that need the app's parts: called once they exist. */
  attach(parts: { database: Database; realtime: Realtime }): void;
}

// Up to 150 ms (the goal for every screen's call) finely, then coarser to 10 s.
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });

  const requests = new Histogram({
    name: "tranche_http_request_duration_seconds",
    help: "Time to answer an HTTP request, by method, route pattern and status.",
    labelNames: ["method", "route", "status"] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const webhooks = new Counter({
    name: "tranche_webhook_deliveries_total",
    help: "Webhook delivery attempts by outcome: delivered (2xx), failed (retried), refused (address not allowed), dead (given up).",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  const cache = new Counter({
    name: "tranche_read_cache_requests_total",
    help: "Cacheable reads by result: hit (served from memory), miss (computed), bypass (the cache's check could not run).",
    labelNames: ["result"] as const,
    registers: [registry],
  });
  // Every outcome and result is present from the start, so rates and ratios exist before the first event.
  for (const outcome of ["delivered", "failed", "refused", "dead"] as const) webhooks.inc({ outcome }, 0);
  for (const result of ["hit", "miss", "bypass"] as const) cache.inc({ result }, 0);

  let parts: { database: Database; realtime: Realtime } | undefined;
  new Gauge({
    name: "tranche_db_pool_connections_in_use",
    help: "Database connections running a query or transaction (the embedded database has one).",
    registers: [registry],
    collect() {
      if (parts) this.set(parts.database.poolStats().inUse);
    },
  });
  new Gauge({
    name: "tranche_db_pool_waiting",
    help: "Queries and transactions waiting for a database connection.",
    registers: [registry],
    collect() {
      if (parts) this.set(parts.database.poolStats().waiting);
    },
  });
  new Gauge({
    name: "tranche_db_pool_connections",
    help: "Database connections open (in use or idle).",
    registers: [registry],
    collect() {
      if (parts) this.set(parts.database.poolStats().total);
    },
  });
  new Gauge({
    name: "tranche_event_streams_open",
    help: "Server-Sent Events streams (/api/events) open on this process.",
    registers: [registry],
    collect() {
      if (parts) this.set(parts.realtime.streamCount());
    },
  });
  // The backlog and the age come from one query per scrape, shared by both gauges (prom-client starts every
  // metric's collection at once, so both ask before it settles). A scrape while the database is unreachable shows
  // the rest, and these two keep their figures.
  let outboxQuery: Promise<{ topic: string; due: number; oldest: number | null }[] | null> | null = null;
  const outboxFigures = () => {
    if (!parts) return Promise.resolve(null);
    outboxQuery ??= queryRows<{ topic: string; due: number; oldest: number | null }>(
      parts.database.db,
      sql`select topic, count(*)::int as due, extract(epoch from now() - min(run_at))::float8 as oldest
          from outbox where status = 'pending' and run_at <= now()
          group by topic`,
    )
      .catch(() => null)
      .finally(() => {
        outboxQuery = null;
      });
    return outboxQuery;
  };
  new Gauge({
    name: "tranche_outbox_backlog",
    help: "Outbox jobs due and not yet done (webhooks, emails), by topic; shared by every process.",
    labelNames: ["topic"] as const,
    registers: [registry],
    async collect() {
      const rows = await outboxFigures();
      if (!rows) return;
      this.reset();
      for (const row of rows) this.set({ topic: row.topic }, Number(row.due));
    },
  });
  new Gauge({
    name: "tranche_outbox_oldest_due_age_seconds",
    help: "How long the oldest due outbox job has waited since it became due (0 when none is).",
    registers: [registry],
    async collect() {
      const rows = await outboxFigures();
      if (rows) this.set(Math.max(0, ...rows.map((r) => Number(r.oldest ?? 0))));
    },
  });

  return {
    registry,
    observeRequest: (method, route, status, seconds) =>
      requests.observe({ method, route, status: String(status) }, seconds),
    webhookDelivery: (outcome) => webhooks.inc({ outcome }),
    readCache: (result) => cache.inc({ result }),
    attach(next) {
      parts = next;
    },
  };
}
