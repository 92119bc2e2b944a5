import { milestoneCountsQuerySchema, milestoneListQuerySchema, updateMilestoneSchema } from "@tranche/domain";
import { Hono } from "hono";
import type { AppEnv } from "../context";
import { csvFilename, csvResponse } from "../lib/csv";
import { parseJson, parseQuery, pathId } from "../lib/validate";
import { countMilestones } from "../services/milestones/counts";
import { exportMilestones, MILESTONE_CSV_HEADER } from "../services/milestones/export";
import { getMilestone } from "../services/milestones/get";
import { listMilestones } from "../services/milestones/list";
import { deleteMilestone } from "../services/milestones/remove";
import { updateMilestone } from "../services/milestones/update";
import { serviceContext } from "./projects";

export const milestoneRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const ctx = serviceContext(c);
    return c.json(await listMilestones(ctx, parseQuery(c, milestoneListQuerySchema)));
  })
  /** GET /api/milestones/counts: how many milestones the list's filters match, per status (its tabs). */
  .get("/counts", async (c) => {
    const ctx = serviceContext(c);
    return c.json(await countMilestones(ctx, parseQuery(c, milestoneCountsQuerySchema)));
  })
  /** GET /api/milestones/export.csv: the list, with its filters, as a streamed CSV download. */
  .get("/export.csv", (c) => {
    const ctx = serviceContext(c);
    const query = parseQuery(c, milestoneListQuerySchema);
    return csvResponse(c, csvFilename("milestones"), MILESTONE_CSV_HEADER, exportMilestones(ctx, query));
  })
  .get("/:id", async (c) => {
    const ctx = serviceContext(c);
    return c.json(await getMilestone(ctx, pathId(c, "id", "Milestone")));
  })
  .patch("/:id", async (c) => {
    const ctx = serviceContext(c);
    const id = pathId(c, "id", "Milestone");
    return c.json(await updateMilestone(ctx, id, await parseJson(c, updateMilestoneSchema)));
  })
  .delete("/:id", async (c) => {
    const ctx = serviceContext(c);
    await deleteMilestone(ctx, pathId(c, "id", "Milestone"));
    return c.body(null, 204);
  });
