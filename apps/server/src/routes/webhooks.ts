import { createWebhookEndpointSchema, updateWebhookEndpointSchema } from "@tranche/domain";
import { type Context, Hono } from "hono";
import { z } from "zod";
import { requireRole } from "../auth/middleware";
import { requireSecondFactor } from "../auth/require-second-factor";
import type { AppEnv } from "../context";
import { parseJson, parseQuery, pathId } from "../lib/validate";
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

export const deliveriesQuerySchema = z.strictObject({
  before: z.iso.datetime({ offset: true, error: "before must be an ISO time." }).optional(),
});

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

export const webhookEndpointRoutes = new Hono<AppEnv>()
  .get("/", async (c) => c.json(await listEndpoints(adminContext(c))))
  .post("/", async (c) => {
    const ctx = await adminChangeContext(c);
    const input = await parseJson(c, createWebhookEndpointSchema);
    return c.json(await createEndpoint(ctx, input), 201);
  })
  .get("/:id", async (c) => {
    const ctx = adminContext(c);
    return c.json(await getEndpoint(ctx, pathId(c, "id", "Webhook endpoint")));
  })
  .patch("/:id", async (c) => {
    const ctx = await adminChangeContext(c);
    const id = pathId(c, "id", "Webhook endpoint");
    const input = await parseJson(c, updateWebhookEndpointSchema);
    return c.json(await updateEndpoint(ctx, id, input));
  })
  .delete("/:id", async (c) => {
    const ctx = await adminChangeContext(c);
    await deleteEndpoint(ctx, pathId(c, "id", "Webhook endpoint"));
    return c.body(null, 204);
  })
  .post("/:id/rotate-secret", async (c) => {
    const ctx = await adminChangeContext(c);
    return c.json(await rotateSecret(ctx, pathId(c, "id", "Webhook endpoint")));
  })
  .post("/:id/test", async (c) => {
    const ctx = await adminChangeContext(c);
    return c.json(await sendTestEvent(ctx, pathId(c, "id", "Webhook endpoint")), 202);
  })
  .get("/:id/deliveries", async (c) => {
    const ctx = adminContext(c);
    const id = pathId(c, "id", "Webhook endpoint");
    return c.json(await listDeliveries(ctx, id, parseQuery(c, deliveriesQuerySchema)));
  })
  .post("/:id/deliveries/:deliveryId/retry", async (c) => {
    const ctx = await adminChangeContext(c);
    const id = pathId(c, "id", "Webhook endpoint");
    await retryDelivery(ctx, id, pathId(c, "deliveryId", "Delivery"));
    return c.json({ ok: true }, 202);
  })
  .post("/:id/deliveries/:deliveryId/replay", async (c) => {
    const ctx = await adminChangeContext(c);
    const id = pathId(c, "id", "Webhook endpoint");
    await replayDelivery(ctx, id, pathId(c, "deliveryId", "Delivery"));
    return c.json({ ok: true }, 202);
  });
