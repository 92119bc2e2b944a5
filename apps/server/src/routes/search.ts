import { Hono } from "hono";
import type { AppEnv } from "../context";
import { parseQuery } from "../lib/validate";
import { search, searchQuery } from "../services/search/search";
import { serviceContext } from "./projects";

/** GET /api/search?q=: the header's live suggestions. */
export const searchRoutes = new Hono<AppEnv>().get("/", async (c) =>
  c.json(await search(serviceContext(c), parseQuery(c, searchQuery))),
);
