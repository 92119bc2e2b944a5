import { Hono } from "hono";
import type { AppEnv } from "../context";

export const healthRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const { database } = c.get("deps");
  const reachable = await database.ping();
  return c.json(
    { status: reachable ? "ok" : "unavailable", database: { kind: database.kind, reachable } },
    reachable ? 200 : 503,
  );
});
