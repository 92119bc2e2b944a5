import { createRoute } from "@hono/zod-openapi";
import { apiTokenSchema, createApiTokenSchema, createdApiTokenSchema, itemsOf } from "@tranche/domain";
import { requireRole } from "../auth/middleware";
import { requireSecondFactor } from "../auth/require-second-factor";
import { ApiRoutes, body, empty, idParams, json, param, SESSION } from "../openapi/routes";
import { createApiToken } from "../services/api-tokens/create";
import { listApiTokens } from "../services/api-tokens/list";
import { revokeApiToken } from "../services/api-tokens/revoke";

const tags = ["API tokens"];

const list = createRoute({
  method: "get",
  path: "/",
  operationId: "listApiTokens",
  tags,
  summary: "Every API token with its scopes and last use (admins)",
  security: SESSION,
  responses: { 200: json(itemsOf(apiTokenSchema), "The tokens (never the tokens themselves).") },
});

const create = createRoute({
  method: "post",
  path: "/",
  operationId: "createApiToken",
  tags,
  summary: "Create an API token; the answer is the only time the token is shown (admins, second factor)",
  security: SESSION,
  request: {
    body: {
      content: {
        "application/json": {
          schema: createApiTokenSchema,
          example: { name: "Northwind Custody", scopes: ["releases:read", "releases:write"] },
        },
      },
      required: true,
    },
  },
  responses: { 201: json(createdApiTokenSchema, "The token, shown once.") },
});

const revoke = createRoute({
  method: "delete",
  path: "/{id}",
  operationId: "revokeApiToken",
  tags,
  summary: "Revoke an API token (admins, second factor)",
  security: SESSION,
  request: { params: idParams },
  responses: { 204: empty("Revoked.") },
});

/** /api/api-tokens: admins create, list and revoke tokens (a token cannot manage tokens). */
export const apiTokenRoutes = new ApiRoutes()
  .handle(list, async (c) => {
    const actor = requireRole(c, "admin");
    const { db, env } = c.get("deps");
    return c.json({ items: await listApiTokens({ ctx: { db, env, actor } }) }, 200);
  })
  .handle(create, async (c) => {
    const actor = requireRole(c, "admin");
    await requireSecondFactor(c);
    const input = await body(c, create);
    const { db, env } = c.get("deps");
    return c.json(await createApiToken({ ctx: { db, env, actor }, input }), 201);
  })
  .handleRaw(revoke, async (c) => {
    const actor = requireRole(c, "admin");
    await requireSecondFactor(c);
    const tokenId = param(c, "id", "API token");
    const { db, env } = c.get("deps");
    await revokeApiToken({ ctx: { db, env, actor }, tokenId });
    return c.body(null, 204);
  });
