import { createRoute } from "@hono/zod-openapi";
import { healthSchema } from "@tranche/domain";
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

export const healthRoutes = new ApiRoutes().handle(getHealth, async (c) => {
  const { database, realtime } = c.get("deps");
  const reachable = await database.ping();
  const body = {
    status: reachable ? ("ok" as const) : ("unavailable" as const),
    database: { kind: database.kind, reachable },
    realtime: realtime.status(),
  };
  return reachable ? c.json(body, 200) : c.json(body, 503);
});
