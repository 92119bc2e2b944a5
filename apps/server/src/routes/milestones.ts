import { createRoute } from "@hono/zod-openapi";
import {
  MILESTONE_STATUSES,
  milestoneCountsQuerySchema,
  milestoneDetailSchema,
  milestoneExportQuerySchema,
  milestoneListItemSchema,
  milestoneListQuerySchema,
  pageOf,
  statusCountsOf,
  updateMilestoneSchema,
} from "@tranche/domain";
import { serviceContext } from "../auth/middleware";
import { csvFilename, csvResponse } from "../lib/csv";
import { ApiRoutes, body, csvFile, empty, errors, idParams, json, param, query, SESSION } from "../openapi/routes";
import { countMilestones } from "../services/milestones/counts";
import { exportMilestones, MILESTONE_CSV_HEADER } from "../services/milestones/export";
import { getMilestone } from "../services/milestones/get";
import { listMilestones } from "../services/milestones/list";
import { deleteMilestone } from "../services/milestones/remove";
import { updateMilestone } from "../services/milestones/update";

const tags = ["Milestones"];
const params = idParams;

const list = createRoute({
  method: "get",
  path: "/",
  operationId: "listMilestones",
  tags,
  summary: "Milestones the caller may see: filtered, searched by title, sorted, a page at a time",
  security: SESSION,
  request: { query: milestoneListQuerySchema },
  responses: {
    200: json(
      pageOf(milestoneListItemSchema),
      "A page of milestones; `nextCursor` fetches the next (null on the last).",
    ),
  },
});

const counts = createRoute({
  method: "get",
  path: "/counts",
  operationId: "countMilestones",
  tags,
  summary: "How many milestones the caller may see match the list's filters, in all and per status (its tabs)",
  security: SESSION,
  request: { query: milestoneCountsQuerySchema },
  responses: { 200: json(statusCountsOf(MILESTONE_STATUSES), "The counts.") },
});

const exportCsv = createRoute({
  method: "get",
  path: "/export.csv",
  operationId: "exportMilestones",
  tags,
  summary: "The milestone list with the same filters, as a streamed CSV download (UTF-8, header row)",
  security: SESSION,
  request: { query: milestoneExportQuerySchema },
  responses: { 200: csvFile() },
});

const get = createRoute({
  method: "get",
  path: "/{id}",
  operationId: "getMilestone",
  tags,
  summary: "A milestone with its releases and the caller's permissions",
  security: SESSION,
  request: { params },
  responses: { 200: json(milestoneDetailSchema, "The milestone.") },
});

const update = createRoute({
  method: "patch",
  path: "/{id}",
  operationId: "updateMilestone",
  tags,
  summary: "Edit a milestone that is not verified",
  security: SESSION,
  request: {
    params,
    body: {
      content: { "application/json": { schema: updateMilestoneSchema, example: { dueDate: "2027-01-15" } } },
      required: true,
    },
  },
  responses: { 200: json(milestoneDetailSchema, "The updated milestone."), ...errors(422) },
});

const remove = createRoute({
  method: "delete",
  path: "/{id}",
  operationId: "deleteMilestone",
  tags,
  summary: "Delete a milestone with no release",
  security: SESSION,
  request: { params },
  responses: { 204: empty("Deleted.") },
});

const milestoneId = (c: Parameters<typeof param>[0]) => param(c, "id", "Milestone");

export const milestoneRoutes = new ApiRoutes()
  .handle(list, async (c) => {
    const ctx = serviceContext(c);
    return c.json(await listMilestones(ctx, query(c, list)), 200);
  })
  .handle(counts, async (c) => {
    const ctx = serviceContext(c);
    return c.json(await countMilestones(ctx, query(c, counts)), 200);
  })
  .handleRaw(exportCsv, (c) => {
    const ctx = serviceContext(c);
    return csvResponse(c, csvFilename("milestones"), MILESTONE_CSV_HEADER, exportMilestones(ctx, query(c, exportCsv)));
  })
  .handle(get, async (c) => {
    const ctx = serviceContext(c);
    return c.json(await getMilestone(ctx, milestoneId(c)), 200);
  })
  .handle(update, async (c) => {
    const ctx = serviceContext(c);
    const id = milestoneId(c);
    return c.json(await updateMilestone(ctx, id, await body(c, update)), 200);
  })
  .handleRaw(remove, async (c) => {
    const ctx = serviceContext(c);
    await deleteMilestone(ctx, milestoneId(c));
    return c.body(null, 204);
  });
