import { createRoute } from "@hono/zod-openapi";
import {
  createWebhookEndpointSchema,
  deliveriesQuerySchema,
  itemsOf,
  pageOf,
  queuedSchema,
  testDeliverySchema,
  updateWebhookEndpointSchema,
  webhookDeliverySchema,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
} from "@tranche/domain";
import type { Context } from "hono";
import { z } from "zod";
import { requireRole } from "../auth/middleware";
import { requireSecondFactor } from "../auth/require-second-factor";
import type { AppEnv } from "../context";
import { ApiRoutes, body, empty, errors, idParams, json, param, query, SESSION } from "../openapi/routes";
import { listDeliveries, replayDelivery, retryDelivery, sendTestEvent } from "../services/webhooks/deliveries";
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
  type WebhookServiceContext,
} from "../services/webhooks/endpoints";

/** Admins only: permission is checked before the body or the id is looked at. */
function adminContext(c: Context<AppEnv>): WebhookServiceContext {
  const actor = requireRole(c, "admin");
  const deps = c.get("deps");
  return { db: deps.db, env: deps.env, actor, deps };
}

/** A change to integrations: an admin who has passed the second factor. */
async function adminChangeContext(c: Context<AppEnv>): Promise<WebhookServiceContext> {
  const ctx = adminContext(c);
  await requireSecondFactor(c);
  return ctx;
}

const tags = ["Webhooks"];
const params = idParams;
const deliveryParams = z.object({ id: z.uuid(), deliveryId: z.uuid() });
const queued = json(queuedSchema, "Queued.");

const list = createRoute({
  method: "get",
  path: "/",
  operationId: "listWebhookEndpoints",
  tags,
  summary: "Webhook endpoints (admins); secrets are never listed",
  security: SESSION,
  responses: { 200: json(itemsOf(webhookEndpointSchema), "The endpoints.") },
});

const create = createRoute({
  method: "post",
  path: "/",
  operationId: "createWebhookEndpoint",
  tags,
  summary: "Register an endpoint (admins); https, not a private address; the whsec_ secret is shown once",
  security: SESSION,
  request: {
    body: {
      content: {
        "application/json": {
          schema: createWebhookEndpointSchema,
          example: {
            url: "https://custodian.example/tranche/webhooks",
            events: ["release.instructed", "release.settled"],
            description: "Escrow agent",
          },
        },
      },
      required: true,
    },
  },
  responses: { 201: json(webhookEndpointWithSecretSchema, "The endpoint with its signing secret (this answer only).") },
});

const get = createRoute({
  method: "get",
  path: "/{id}",
  operationId: "getWebhookEndpoint",
  tags,
  summary: "One endpoint (admins)",
  security: SESSION,
  request: { params },
  responses: { 200: json(webhookEndpointSchema, "The endpoint.") },
});

const update = createRoute({
  method: "patch",
  path: "/{id}",
  operationId: "updateWebhookEndpoint",
  tags,
  summary: "Change an endpoint's URL, events, description or enabled flag (admins)",
  security: SESSION,
  request: {
    params,
    body: {
      content: {
        "application/json": {
          schema: updateWebhookEndpointSchema,
          example: { enabled: true, events: ["release.instructed"] },
        },
      },
      required: true,
    },
  },
  responses: { 200: json(webhookEndpointSchema, "The endpoint.") },
});

const remove = createRoute({
  method: "delete",
  path: "/{id}",
  operationId: "deleteWebhookEndpoint",
  tags,
  summary: "Delete an endpoint and its delivery log (admins)",
  security: SESSION,
  request: { params },
  responses: { 204: empty("Deleted.") },
});

const rotate = createRoute({
  method: "post",
  path: "/{id}/rotate-secret",
  operationId: "rotateWebhookSecret",
  tags,
  summary: "A new signing secret, shown once; the previous one signs beside it for 24 hours (admins)",
  security: SESSION,
  request: { params },
  responses: { 200: json(webhookEndpointWithSecretSchema, "The endpoint with its new secret.") },
});

const test = createRoute({
  method: "post",
  path: "/{id}/test",
  operationId: "sendWebhookTestEvent",
  tags,
  summary: "Send a webhook.test event to this endpoint (admins)",
  security: SESSION,
  request: { params },
  responses: { 202: json(testDeliverySchema, "Queued; the delivery id is its webhook-id.") },
});

const deliveries = createRoute({
  method: "get",
  path: "/{id}/deliveries",
  operationId: "listWebhookDeliveries",
  tags,
  summary: "The endpoint's deliveries with every attempt, newest first (admins)",
  security: SESSION,
  request: { params, query: deliveriesQuerySchema },
  responses: { 200: json(pageOf(webhookDeliverySchema), "A page of deliveries; `nextCursor` is the next `before`.") },
});

const retry = createRoute({
  method: "post",
  path: "/{id}/deliveries/{deliveryId}/retry",
  operationId: "retryWebhookDelivery",
  tags,
  summary: "Retry now: a pending or failed delivery is attempted at once (admins)",
  security: SESSION,
  request: { params: deliveryParams },
  responses: { 202: queued, ...errors(422) },
});

const replay = createRoute({
  method: "post",
  path: "/{id}/deliveries/{deliveryId}/replay",
  operationId: "replayWebhookDelivery",
  tags,
  summary: "Replay: send a finished delivery again with the same webhook-id (admins)",
  security: SESSION,
  request: { params: deliveryParams },
  responses: { 202: queued, ...errors(422) },
});

const endpointId = (c: Context<AppEnv>) => param(c, "id", "Webhook endpoint");

export const webhookEndpointRoutes = new ApiRoutes()
  .handle(list, async (c) => c.json(await listEndpoints(adminContext(c)), 200))
  .handle(create, async (c) => {
    const ctx = await adminChangeContext(c);
    const input = await body(c, create);
    return c.json(await createEndpoint(ctx, input), 201);
  })
  .handle(get, async (c) => {
    const ctx = adminContext(c);
    return c.json(await getEndpoint(ctx, endpointId(c)), 200);
  })
  .handle(update, async (c) => {
    const ctx = await adminChangeContext(c);
    const id = endpointId(c);
    const input = await body(c, update);
    return c.json(await updateEndpoint(ctx, id, input), 200);
  })
  .handleRaw(remove, async (c) => {
    const ctx = await adminChangeContext(c);
    await deleteEndpoint(ctx, endpointId(c));
    return c.body(null, 204);
  })
  .handle(rotate, async (c) => {
    const ctx = await adminChangeContext(c);
    return c.json(await rotateSecret(ctx, endpointId(c)), 200);
  })
  .handle(test, async (c) => {
    const ctx = await adminChangeContext(c);
    return c.json(await sendTestEvent(ctx, endpointId(c)), 202);
  })
  .handle(deliveries, async (c) => {
    const ctx = adminContext(c);
    const id = endpointId(c);
    return c.json(await listDeliveries(ctx, id, query(c, deliveries)), 200);
  })
  .handle(retry, async (c) => {
    const ctx = await adminChangeContext(c);
    const id = endpointId(c);
    await retryDelivery(ctx, id, param(c, "deliveryId", "Delivery"));
    return c.json({ ok: true as const }, 202);
  })
  .handle(replay, async (c) => {
    const ctx = await adminChangeContext(c);
    const id = endpointId(c);
    await replayDelivery(ctx, id, param(c, "deliveryId", "Delivery"));
    return c.json({ ok: true as const }, 202);
  });
