import { Hono } from "hono";
import type { AppEnv } from "../context";

export const healthRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const { database, realtime } = c.get("deps");
  const reachable = await database.ping();
  // A lost LISTEN connection degrades live updates but not requests: still 200, with the state named.
  return c.json(
    {
      status: reachable ? "ok" : "unavailable",
      database: { kind: database.kind, reachable },
      realtime: realtime.status(),
    },
    reachable ? 200 : 503,
  );
});
