// A real server process with OTEL_EXPORTER_OTLP_ENDPOINT set sends its spans to a local OTLP/HTTP endpoint (an
// HTTP server span per request, named by its route and carrying its request id; on PostgreSQL, a span per query
// made while answering it), and METRICS_PORT serves /metrics alone on a port of its own.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, usePostgres } from "./harness";
import { freePort, type ServerProcess, startServerProcess, stopServerProcess } from "./server-process";

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}

/** An OTLP/HTTP traces endpoint (JSON, as the http exporter sends it, gzipped or not), keeping every span. */
async function startCollector() {
  const spans: OtlpSpan[] = [];
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      paths.push(req.url ?? "");
      const raw = Buffer.concat(chunks);
      const text = (req.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw).toString("utf8");
      const body = JSON.parse(text || "{}");
      for (const resource of body.resourceSpans ?? []) {
        for (const scope of resource.scopeSpans ?? []) spans.push(...(scope.spans ?? []));
      }
      res.setHeader("content-type", "application/json");
      res.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    paths,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const attr = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : String(value.intValue));
};

async function until<T>(what: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = what();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("traces and the metrics port of a real server process", () => {
  let t: TestApp | undefined;
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let proc: ServerProcess;
  let metricsPort: number;
  beforeAll(async () => {
    collector = await startCollector();
    if (usePostgres) t = await createTestApp();
    metricsPort = await freePort();
    proc = await startServerProcess((t?.deps.env.DATABASE_URL as string | undefined) ?? null, {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_SERVICE_NAME: "tranche-under-test",
      // Spans leave every 100 ms instead of every 5 s.
      OTEL_BSP_SCHEDULE_DELAY: "100",
      METRICS_PORT: String(metricsPort),
    });
  }, 120_000);
  afterAll(async () => {
    await stopServerProcess(proc);
    await collector?.close();
    await t?.close();
  });

  it("sends an HTTP server span per request with its route and request id, and its database spans", async () => {
    const res = await fetch(`${proc.url}/api/health`, { headers: { "x-request-id": "trace-me-0001" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("trace-me-0001");
    const server = await until(() =>
      collector.spans.find((s) => s.kind === 2 && attr(s, "tranche.request_id") === "trace-me-0001"),
    );
    expect(server.name).toBe("GET /api/health");
    expect(attr(server, "http.route")).toBe("/api/health");
    expect(collector.paths.every((p) => p === "/v1/traces")).toBe(true);
    if (usePostgres) {
      // The health check's query, as a child of the request's span.
      const query = await until(() =>
        collector.spans.find((s) => s.parentSpanId === server.spanId && attr(s, "db.system") === "postgresql"),
      );
      expect(query.traceId).toBe(server.traceId);
      expect(query.kind).toBe(3);
    }
  });

  it("names a span by its route pattern, not its URL", async () => {
    const id = "00000000-0000-4000-8000-000000000000";
    const res = await fetch(`${proc.url}/api/projects/${id}`, { headers: { "x-request-id": "trace-me-0002" } });
    expect(res.status).toBe(401);
    const span = await until(() => collector.spans.find((s) => attr(s, "tranche.request_id") === "trace-me-0002"));
    expect(span.name).toBe("GET /api/projects/:id");
  });

  it("serves /metrics alone on METRICS_PORT, without a token", async () => {
    await fetch(`${proc.url}/api/health`);
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(
      /tranche_http_request_duration_seconds_count\{method="GET",route="\/api\/health",status="200"\} \d+/,
    );
    expect(text).toContain("nodejs_eventloop_lag_seconds");
    expect((await fetch(`http://127.0.0.1:${metricsPort}/api/health`)).status).toBe(404);
    // The main port keeps it closed: no token is configured.
    expect((await fetch(`${proc.url}/metrics`)).status).toBe(404);
  });
});
