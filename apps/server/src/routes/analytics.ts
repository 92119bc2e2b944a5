import { createRoute } from "@hono/zod-openapi";
import { analyticsSchema } from "@tranche/domain";
import { serviceContext } from "../auth/middleware";
import { ApiRoutes, json, SESSION } from "../openapi/routes";
import { getAnalytics } from "../services/analytics/get-analytics";

const analytics = createRoute({
  method: "get",
  path: "/",
  operationId: "getAnalytics",
  tags: ["Dashboard"],
  summary: "The Reports charts' series over the projects the caller may see (every role, its own projects)",
  description:
    "Capital released and settled by month, milestones by status at each month's end and upcoming releases, " +
    "over the projects the caller may see: admins all, everyone else their own projects. The verification " +
    "turnaround series is for admins (null for other roles).",
  security: SESSION,
  responses: { 200: json(analyticsSchema, "The series.") },
});

export const analyticsRoutes = new ApiRoutes().handle(analytics, async (c) =>
  c.json(await getAnalytics(serviceContext(c)), 200),
);
