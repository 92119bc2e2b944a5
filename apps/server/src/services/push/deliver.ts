// Priority notifications to the devices that enabled push. notify() queues one outbox message per (notification,
// device) in its transaction; the worker encrypts the message for the device (RFC 8291, aes128gcm), signs it with
// the VAPID key (RFC 8292) and POSTs it to the device's push service with its urgency (RFC 8030). Failures are
// retried by the outbox; a push service that answers 404 or 410 has dropped the subscription, and so do we.
import type { PushPayload, PushUrgency } from "@tranche/domain";
import { eq, inArray } from "drizzle-orm";
import webPush from "web-push";
import { sessionEnd } from "../../auth/sessions";
import type { Deps } from "../../context";
import type { DbOrTx } from "../../db/client";
import { notifications, pushSubscriptions } from "../../db/schema";
import { enqueue } from "../outbox/outbox";
import { GiveUp, type TopicConfig } from "../outbox/worker";
import { resolveTarget, TargetRefused } from "../webhooks/address";
import { sendWebhook } from "../webhooks/send";
import { vapidKeys } from "./vapid";

export const PUSH_TOPIC = "push";

const S = 1000;
const MIN = 60 * S;
/** A push about a verification is stale after a day: the push service may drop it after this. */
export const PUSH_TTL_S = 24 * 60 * 60;
const PUSH_TIMEOUT_MS = 10 * S;

interface PushMessage {
  notificationId: string;
  subscriptionId: string;
  urgency: PushUrgency;
}

/** Called by notify() in its transaction: one message per device of each recipient that enabled push. */
export async function queuePush(
  tx: DbOrTx,
  rows: { id: string; userId: string }[],
  urgency: PushUrgency,
): Promise<void> {
  if (rows.length === 0) return;
  const devices = await tx
    .select({ id: pushSubscriptions.id, userId: pushSubscriptions.userId })
    .from(pushSubscriptions)
    .where(
      inArray(
        pushSubscriptions.userId,
        rows.map((row) => row.userId),
      ),
    );
  for (const row of rows) {
    for (const device of devices.filter((d) => d.userId === row.userId)) {
      const message: PushMessage = { notificationId: row.id, subscriptionId: device.id, urgency };
      await enqueue(tx, PUSH_TOPIC, message);
    }
  }
}

/** Where a click goes: the assignment in the field view, or the field view's list. */
export const fieldLink = (milestoneId: string | null) => (milestoneId ? `/field/milestones/${milestoneId}` : "/field");

/** What the device shows, built when it is sent (the notification is the record of what was said). */
function payloadOf(notification: typeof notifications.$inferSelect, urgency: PushUrgency): PushPayload {
  const milestoneId = (notification.subject as { milestoneId?: string } | null)?.milestoneId ?? null;
  return {
    title: notification.title,
    body: notification.message,
    url: fieldLink(milestoneId),
    tag: milestoneId ? `milestone-${milestoneId}` : `notification-${notification.id}`,
    urgency,
    notificationId: notification.id,
    milestoneId,
  };
}

class PushFailed extends Error {}

/** One attempt to deliver one message to one device. */
async function deliverPush(deps: Deps, message: PushMessage): Promise<void> {
  const [device] = await deps.db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.id, message.subscriptionId));
  const [notification] = await deps.db.select().from(notifications).where(eq(notifications.id, message.notificationId));
  // The device turned push off, or the notification went with its account: nothing to send.
  if (!device || !notification || notification.userId !== device.userId) return;
  // The session that enabled it ended by its idle or absolute limit (one that was signed out took the subscription
  // with it): the browser is no longer signed in, and hears nothing more until it signs in again.
  if ((await sessionEnd(deps.db, device.sessionId, deps.env)) === null) {
    await deps.db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, device.id));
    return;
  }
  const keys = await vapidKeys(deps);
  const payload = payloadOf(notification, message.urgency);
  const request = webPush.generateRequestDetails(
    { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
    JSON.stringify(payload),
    {
      vapidDetails: keys,
      TTL: PUSH_TTL_S,
      urgency: message.urgency,
      contentEncoding: "aes128gcm",
      // A later push about the same milestone replaces this one while it waits at the push service.
      topic: payload.tag.replace(/-/g, "").slice(0, 32),
    },
  );
  let target: Awaited<ReturnType<typeof resolveTarget>>;
  try {
    target = await resolveTarget(device.endpoint, deps.env.PUSH_ALLOW_PRIVATE);
  } catch (error) {
    if (error instanceof TargetRefused) throw new GiveUp(`refused: ${error.message}`);
    throw error;
  }
  const headers = Object.fromEntries(
    Object.entries(request.headers)
      .filter(([name]) => name.toLowerCase() !== "content-length")
      .map(([name, value]) => [name, String(value)]),
  );
  // The same pinned, redirect-free POST as a webhook: the address checked is the one connected to.
  const result = await sendWebhook(target, request.body ?? Buffer.alloc(0), headers, PUSH_TIMEOUT_MS);
  const status = result.statusCode;
  if (status === 404 || status === 410) {
    await deps.db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, device.id));
    return;
  }
  if (result.error === null) {
    await deps.db.update(pushSubscriptions).set({ lastSentAt: new Date() }).where(eq(pushSubscriptions.id, device.id));
    return;
  }
  // Too many requests, the service's own trouble, or no answer: later. Any other refusal will not change.
  if (status === null || status === 429 || status >= 500) throw new PushFailed(result.error);
  throw new GiveUp(`${result.error}: ${result.response.slice(0, 200)}`);
}

export function pushTopic(deps: Deps): Record<string, TopicConfig> {
  return {
    [PUSH_TOPIC]: {
      retryDelaysMs: [5 * S, 30 * S, 2 * MIN, 10 * MIN, 60 * MIN],
      // Past a day the message is stale (its TTL): stop.
      maxAttempts: 10,
      handle: (message) => deliverPush(deps, message.payload as PushMessage),
    },
  };
}
