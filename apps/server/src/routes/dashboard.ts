import { createRoute } from "@hono/zod-openapi";
import { dashboardSchema } from "@tranche/domain";
import { serviceContext } from "../auth/middleware";
import { ApiRoutes, json, SESSION } from "../openapi/routes";
import { getDashboard } from "../services/dashboard/get-dashboard";

const dashboard = createRoute({
  method: "get",
  path: "/",
  operationId: "getDashboard",
  tags: ["Dashboard"],
  summary: "The signed-in role's dashboard figures",
  security: SESSION,
  responses: { 200: json(dashboardSchema, "The overview cards and the role's figures, per currency.") },
});

export const dashboardRoutes = new ApiRoutes().handle(dashboard, async (c) =>
  c.json(await getDashboard({ ctx: serviceContext(c) }), 200),
);
