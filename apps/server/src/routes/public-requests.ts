import { createRoute } from "@hono/zod-openapi";
import { pageOf, publicRequestDtoSchema, publicRequestSchema } from "@tranche/domain";
import { clientIp, serviceContext } from "../auth/middleware";
import { ApiRoutes, body, errors, json, PUBLIC, query, SESSION } from "../openapi/routes";
import { createPublicRequest, limitPublicForm } from "../services/public-requests/create";
import { listPublicRequests, listPublicRequestsQuery } from "../services/public-requests/list";

const tags = ["Public requests"];

const create = createRoute({
  method: "post",
  path: "/",
  operationId: "createPublicRequest",
  tags,
  summary: "Request a demo, early access or a verifier partnership",
  security: PUBLIC,
  request: {
    body: {
      content: {
        "application/json": {
          schema: publicRequestSchema,
          example: { kind: "demo", email: "cfo@fund.example", name: "Dana Lee", organization: "North Fund" },
        },
      },
      required: true,
    },
  },
  responses: { 201: json(publicRequestDtoSchema, "Received."), ...errors(429) },
});

const list = createRoute({
  method: "get",
  path: "/",
  operationId: "listPublicRequests",
  tags,
  summary: "Inbound requests (admins)",
  security: SESSION,
  request: { query: listPublicRequestsQuery },
  responses: { 200: json(pageOf(publicRequestDtoSchema), "A page of requests, newest first.") },
});

export const publicRequestRoutes = new ApiRoutes()
  // Public: the Request Demo, Request Early Access and verifier partner forms.
  .handle(create, async (c) => {
    const { db, env } = c.get("deps");
    const ip = clientIp(c);
    // Counted before validation, so malformed floods are limited too.
    await limitPublicForm(db, env, ip);
    const input = await body(c, create);
    return c.json(await createPublicRequest({ db, input, ip }), 201);
  })
  .handle(list, async (c) => {
    const ctx = serviceContext(c);
    return c.json(await listPublicRequests({ ctx, input: query(c, list) }), 200);
  });
