import { createRoute } from "@hono/zod-openapi";
import { fieldAssignmentSchema, fieldVisitSchema, itemsOf } from "@tranche/domain";
import { serviceContext } from "../auth/middleware";
import { ApiRoutes, idParams, json, param, SESSION } from "../openapi/routes";
import { getVisit, listAssignments } from "../services/field/assignments";

const tags = ["Verification"];

const assignments = createRoute({
  method: "get",
  path: "/assignments",
  operationId: "listFieldAssignments",
  tags,
  summary: "The signed-in verifier's open assignments, most urgent first (overdue, due soon, resubmitted, new)",
  security: SESSION,
  responses: {
    200: json(itemsOf(fieldAssignmentSchema), "Each assignment with its site coordinates, round and urgency."),
  },
});

const visit = createRoute({
  method: "get",
  path: "/assignments/{id}",
  operationId: "getFieldVisit",
  tags,
  summary: "What a site visit needs: the assignment, its verification state and its evidence (an assigned verifier)",
  security: SESSION,
  request: { params: idParams },
  responses: { 200: json(fieldVisitSchema, "The visit, as the field app keeps it on the device.") },
});

/** GET /api/field/assignments: the verifier's open assignments by urgency; /:id: what a site visit needs. */
export const fieldRoutes = new ApiRoutes()
  .handle(assignments, async (c) => c.json(await listAssignments(serviceContext(c)), 200))
  .handle(visit, async (c) => {
    const ctx = serviceContext(c);
    return c.json(await getVisit(ctx, param(c, "id", "Milestone")), 200);
  });
