import { Hono } from "hono";
import type { AppEnv } from "../context";
import { pathId } from "../lib/validate";
import { getVisit, listAssignments } from "../services/field/assignments";
import { serviceContext } from "./verification";

/** GET /api/field/assignments: the verifier's open assignments by urgency; /:id: what a site visit needs. */
export const fieldRoutes = new Hono<AppEnv>()
  .get("/assignments", async (c) => c.json(await listAssignments(serviceContext(c))))
  .get("/assignments/:id", async (c) => c.json(await getVisit(serviceContext(c), pathId(c, "id", "Milestone"))));
