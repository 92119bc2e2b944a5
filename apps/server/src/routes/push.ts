import { pushSubscriptionSchema, pushUnsubscribeSchema } from "@tranche/domain";
import { Hono } from "hono";
import type { AppEnv } from "../context";
import { parseJson } from "../lib/validate";
import { subscribe, unsubscribe } from "../services/push/subscriptions";
import { vapidKeys } from "../services/push/vapid";
import { serviceContext } from "./verification";

/** /api/push: Web Push for the caller's devices. */
export const pushRoutes = new Hono<AppEnv>()
  // The public half of the key push messages are signed with: browsers subscribe with it. Public by nature.
  .get("/vapid-public-key", async (c) => c.json({ publicKey: (await vapidKeys(c.get("deps"))).publicKey }))
  .post("/subscriptions", async (c) => {
    const ctx = serviceContext(c);
    const input = await parseJson(c, pushSubscriptionSchema);
    return c.json(await subscribe(ctx, input, c.req.header("user-agent") ?? null), 201);
  })
  .delete("/subscriptions", async (c) => {
    const ctx = serviceContext(c);
    const { endpoint } = await parseJson(c, pushUnsubscribeSchema);
    await unsubscribe(ctx, endpoint);
    return c.body(null, 204);
  });
