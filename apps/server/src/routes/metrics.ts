// GET /metrics is never public: on the main port it answers only a request bearing METRICS_TOKEN (404 when no
// token is configured, 401 without the right one); METRICS_PORT serves it alone on a port of its own, for a
// network only Prometheus reaches.
import { createHash, timingSafeEqual } from "node:crypto";
import { Hono } from "hono";
import type { AppEnv, Deps } from "../context";
import { AppError } from "../errors";
import type { Metrics } from "../lib/metrics";

async function exposition(metrics: Metrics): Promise<Response> {
  return new Response(await metrics.registry.metrics(), {
    headers: { "Content-Type": metrics.registry.contentType, "Cache-Control": "no-store" },
  });
}

/** Compares digests, so the comparison takes the same time whatever the guess. */
const sameSecret = (given: string, expected: string) =>
  timingSafeEqual(createHash("sha256").update(given).digest(), createHash("sha256").update(expected).digest());

/** /metrics on the main port. */
export const metricsRoutes = new Hono<AppEnv>().get("/", (c) => {
  const { env, metrics } = c.get("deps");
  if (!env.METRICS_TOKEN) throw new AppError("not_found", "No such endpoint.");
  const given = /^Bearer (.+)$/.exec(c.req.header("authorization") ?? "")?.[1] ?? "";
  if (!sameSecret(given, env.METRICS_TOKEN)) {
    throw new AppError("unauthenticated", "Metrics need the metrics token.", undefined, {
      "WWW-Authenticate": 'Bearer realm="metrics"',
    });
  }
  return exposition(metrics);
});

/** The app METRICS_PORT serves: /metrics and nothing else. */
export function metricsPortApp(deps: Pick<Deps, "metrics">) {
  const app = new Hono();
  app.get("/metrics", () => exposition(deps.metrics));
  app.all("*", (c) => c.json({ error: { code: "not_found", message: "Only /metrics is served here." } }, 404));
  return app;
}
