import { Hono } from "hono";
import type { AppEnv } from "../context";
import { getAnalytics } from "../services/analytics/get-analytics";
import { serviceContext } from "./projects";

/** GET /api/analytics: the Reports charts' series over the caller's visible projects. */
export const analyticsRoutes = new Hono<AppEnv>().get("/", async (c) => c.json(await getAnalytics(serviceContext(c))));
