import { createRoute } from "@hono/zod-openapi";
import { pageOf, updateUserSchema, userAdminSchema, userListQuerySchema } from "@tranche/domain";
import { requireRole } from "../auth/middleware";
import { requireSecondFactor } from "../auth/require-second-factor";
import { ApiRoutes, body, errors, idParams, json, param, query, SESSION } from "../openapi/routes";
import { changeUserRole } from "../services/users/change-role";
import { listUsers } from "../services/users/list";

const tags = ["Users"];

const list = createRoute({
  method: "get",
  path: "/",
  operationId: "listUsers",
  tags,
  summary: "Users, filtered by role, searched by name or email, sorted, a page at a time (admins)",
  security: SESSION,
  request: { query: userListQuerySchema },
  responses: { 200: json(pageOf(userAdminSchema), "A page of users; `nextCursor` fetches the next.") },
});

const update = createRoute({
  method: "patch",
  path: "/{id}",
  operationId: "changeUserRole",
  tags,
  summary: "Change a user's role or verified organization (admins, second factor)",
  security: SESSION,
  request: {
    params: idParams,
    body: {
      content: { "application/json": { schema: updateUserSchema, example: { role: "verifier" } } },
      required: true,
    },
  },
  responses: { 200: json(userAdminSchema, "The user."), ...errors(422) },
});

export const userRoutes = new ApiRoutes()
  .handle(list, async (c) => {
    const actor = requireRole(c, "admin");
    const { db, env } = c.get("deps");
    return c.json(await listUsers({ ctx: { db, env, actor }, input: query(c, list) }), 200);
  })
  .handle(update, async (c) => {
    // Permission before input: a non-admin learns nothing about the body or the id.
    const actor = requireRole(c, "admin");
    await requireSecondFactor(c);
    const userId = param(c, "id", "User");
    const input = await body(c, update);
    const { db, env } = c.get("deps");
    return c.json(await changeUserRole({ ctx: { db, env, actor }, userId, input }), 200);
  });
