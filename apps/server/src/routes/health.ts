import { createRoute } from "@hono/zod-openapi";
import { healthSchema, livenessSchema, readinessSchema } from "@tranche/domain";
import { ApiRoutes, json, PUBLIC } from "../openapi/routes";

const getHealth = createRoute({
  method: "get",
  path: "/",
  operationId: "getHealth",
  tags: ["Health"],
  summary: "Whether the database is reachable and realtime is listening",
  security: PUBLIC,
  responses: {
    200: json(healthSchema, "Healthy. A lost LISTEN connection degrades live updates only: still 200, named."),
    503: json(healthSchema, "The database is unreachable."),
  },
});

const getLive = createRoute({
  method: "get",
  path: "/live",
  operationId: "getLiveness",
  tags: ["Health"],
  summary: "The process is up (for restarting a hung process; never looks at the database)",
  security: PUBLIC,
  responses: { 200: json(livenessSchema, "The process answers.") },
});

const getReady = createRoute({
  method: "get",
  path: "/ready",
  operationId: "getReadiness",
  tags: ["Health"],
  summary: "Whether a load balancer should send this process requests",
  description:
    "503 while the database does not answer, and from the moment the process receives SIGTERM: it goes on " +
    "serving for SHUTDOWN_DRAIN_MS so the load balancer sees this first, then stops accepting connections, lets " +
    "in-flight requests finish and exits.",
  security: PUBLIC,
  responses: {
    200: json(readinessSchema, "Ready: the database answers and the process is not shutting down."),
    503: json(readinessSchema, "Not ready: shutting down (`draining`) or the database is unreachable."),
  },
});

export const healthRoutes = new ApiRoutes()
  .handle(getLive, (c) => c.json({ status: "ok" as const }, 200))
  .handle(getReady, async (c) => {
    const { database, lifecycle } = c.get("deps");
    const reachable = await database.ping();
    if (lifecycle?.draining) return c.json({ status: "draining" as const, database: { reachable } }, 503);
    return reachable
      ? c.json({ status: "ready" as const, database: { reachable } }, 200)
      : c.json({ status: "unavailable" as const, database: { reachable } }, 503);
  })
  .handle(getHealth, async (c) => {
    const { database, realtime } = c.get("deps");
    const reachable = await database.ping();
    const body = {
      status: reachable ? ("ok" as const) : ("unavailable" as const),
      database: { kind: database.kind, reachable },
      realtime: realtime.status(),
    };
    return reachable ? c.json(body, 200) : c.json(body, 503);
  });
