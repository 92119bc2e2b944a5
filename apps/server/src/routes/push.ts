import { createRoute } from "@hono/zod-openapi";
import {
  pushSubscriptionAnswerSchema,
  pushSubscriptionSchema,
  pushUnsubscribeSchema,
  vapidPublicKeySchema,
} from "@tranche/domain";
import { serviceContext } from "../auth/middleware";
import { ApiRoutes, body, empty, json, jsonBody, PUBLIC, SESSION } from "../openapi/routes";
import { subscribe, unsubscribe } from "../services/push/subscriptions";
import { vapidKeys } from "../services/push/vapid";

const tags = ["Push"];
const ENDPOINT = "https://push.example/send/abc123";

const publicKey = createRoute({
  method: "get",
  path: "/vapid-public-key",
  operationId: "getVapidPublicKey",
  tags,
  summary: "The public VAPID key browsers subscribe to push with (applicationServerKey)",
  security: PUBLIC,
  responses: { 200: json(vapidPublicKeySchema, "The key, base64url (65-byte uncompressed P-256 point).") },
});

const subscribeRoute = createRoute({
  method: "post",
  path: "/subscriptions",
  operationId: "subscribePush",
  tags,
  summary: "Enable push on this device: the browser's PushSubscription as JSON",
  description:
    "The endpoint must be https, without a user name or password, and name a public host (not a private address). " +
    "A device another person had enabled moves to the caller.",
  security: SESSION,
  request: {
    body: jsonBody(pushSubscriptionSchema, {
      endpoint: ENDPOINT,
      expirationTime: null,
      keys: {
        p256dh: "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM",
        auth: "tBHItJI5svbpez7KI4CCXg",
      },
    }),
  },
  responses: { 201: json(pushSubscriptionAnswerSchema, "The subscription's id and the device it was read as.") },
});

const unsubscribeRoute = createRoute({
  method: "delete",
  path: "/subscriptions",
  operationId: "unsubscribePush",
  tags,
  summary: "Disable push on this device",
  security: SESSION,
  request: { body: jsonBody(pushUnsubscribeSchema, { endpoint: ENDPOINT }) },
  responses: { 204: empty("Disabled (also when it was not on).") },
});

/** /api/push: Web Push for the caller's devices. */
export const pushRoutes = new ApiRoutes()
  // The public half of the key push messages are signed with: browsers subscribe with it. Public by nature.
  .handle(publicKey, async (c) => c.json({ publicKey: (await vapidKeys(c.get("deps"))).publicKey }, 200))
  .handle(subscribeRoute, async (c) => {
    const ctx = serviceContext(c);
    const input = await body(c, subscribeRoute);
    return c.json(await subscribe(ctx, input, c.req.header("user-agent") ?? null), 201);
  })
  .handleRaw(unsubscribeRoute, async (c) => {
    const ctx = serviceContext(c);
    const { endpoint } = await body(c, unsubscribeRoute);
    await unsubscribe(ctx, endpoint);
    return c.body(null, 204);
  });
