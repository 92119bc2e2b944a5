import { createRoute } from "@hono/zod-openapi";
import {
  pageOf,
  secondFactorResetSchema,
  updateUserSchema,
  userAdminSchema,
  userListQuerySchema,
} from "@tranche/domain";
import { requireRole } from "../auth/middleware";
import { requireSecondFactor } from "../auth/require-second-factor";
import { ApiRoutes, body, errors, idParams, json, param, query, SESSION } from "../openapi/routes";
import { changeUserRole } from "../services/users/change-role";
import { listUsers } from "../services/users/list";
import { resetSecondFactor } from "../services/users/reset-second-factor";

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

const resetMfa = createRoute({
  method: "post",
  path: "/{id}/mfa/reset",
  operationId: "resetUserSecondFactor",
  tags,
  summary:
    "Remove a person's authenticator app, recovery codes and passkeys and sign them out everywhere, for one who lost theirs (admins, second factor)",
  description:
    "The person is emailed, and sets up a second factor again after signing in with their password. 409 for the admin's own (changed under Account → Security) and for a person with none.",
  security: SESSION,
  request: { params: idParams },
  responses: { 200: json(secondFactorResetSchema, "What was removed (counts), and the user.") },
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
  })
  .handle(resetMfa, async (c) => {
    // As a role change: permission and the admin's own second factor before the id.
    const actor = requireRole(c, "admin");
    await requireSecondFactor(c);
    const userId = param(c, "id", "User");
    const { db, env } = c.get("deps");
    return c.json(await resetSecondFactor({ ctx: { db, env, actor }, userId }), 200);
  });
