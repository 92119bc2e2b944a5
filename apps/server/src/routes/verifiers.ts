import { createRoute } from "@hono/zod-openapi";
import { pageOf, verifierListQuerySchema, verifierSchema } from "@tranche/domain";
import { serviceContext } from "../auth/middleware";
import { ApiRoutes, json, query, SESSION } from "../openapi/routes";
import { listVerifiers } from "../services/verifiers/list";

const list = createRoute({
  method: "get",
  path: "/",
  operationId: "listVerifiers",
  tags: ["Verification"],
  summary: "Verifiers with their track record, searched and sorted, a page at a time (investors and admins)",
  security: SESSION,
  request: { query: verifierListQuerySchema },
  responses: { 200: json(pageOf(verifierSchema), "A page of verifiers; `nextCursor` fetches the next.") },
});

export const verifierRoutes = new ApiRoutes().handle(list, async (c) => {
  const ctx = serviceContext(c);
  return c.json(await listVerifiers(ctx, query(c, list)), 200);
});
