import { createRoute } from "@hono/zod-openapi";
import { searchResultsSchema } from "@tranche/domain";
import { serviceContext } from "../auth/middleware";
import { ApiRoutes, json, query, SESSION } from "../openapi/routes";
import { search, searchQuery } from "../services/search/search";

const searchRoute = createRoute({
  method: "get",
  path: "/",
  operationId: "search",
  tags: ["Dashboard"],
  summary: "Header suggestions: projects, milestones and (for admins) people matching a term, five of each",
  security: SESSION,
  request: { query: searchQuery },
  responses: { 200: json(searchResultsSchema, "The suggestions.") },
});

export const searchRoutes = new ApiRoutes().handle(searchRoute, async (c) => {
  const ctx = serviceContext(c);
  return c.json(await search(ctx, query(c, searchRoute)), 200);
});
