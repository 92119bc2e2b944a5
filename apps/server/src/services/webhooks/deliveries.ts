import { randomUUID } from "node:crypto";
import {
  WEBHOOK_TEST_EVENT,
  type WebhookAttemptDto,
  type WebhookDeliveryDto,
  type WebhookDeliveryStatus,
} from "@tranche/domain";
import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import type { Deps, ServiceContext } from "../../context";
import { type DbOrTx, queryRows, type Tx } from "../../db/client";
import { outbox, users, webhookAttempts, webhookDeliveries, webhookEndpoints } from "../../db/schema";
import { conflict, forbidden, notFound } from "../../errors";
import { keyset, keysetPage, newestFirst } from "../../lib/keyset";
import { appendAudit } from "../audit/append";
import { sharedCheckpoints, withReleaseCheckpoint } from "../audit/checkpoints";
import { notify } from "../notifications/notify";
import { type DomainEvent, enqueue, type OutboxMessage } from "../outbox/outbox";
import { GiveUp, type TopicConfig } from "../outbox/worker";
import { resolveTarget, TargetRefused } from "./address";
import { lockEndpoint, signingSecrets } from "./endpoints";
import { type SendResult, sendWebhook, WEBHOOK_TIMEOUT_MS } from "./send";

const S = 1000;
const MIN = 60 * S;
const HOUR = 60 * MIN;
/** After attempt 1, 2, …: about 5 s, 30 s, 2 min, 10 min, 1 h, then hourly (the last repeats). */
export const WEBHOOK_RETRY_DELAYS_MS = [5 * S, 30 * S, 2 * MIN, 10 * MIN, HOUR] as const;
/** Attempt 28 comes 23 h 12 min after the first; a 29th would fall past 24 h, so the endpoint is disabled. */
export const WEBHOOK_MAX_ATTEMPTS = 28;

type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** Adds one delivery of an event to one endpoint, and its outbox message; nothing if it already exists. */
async function addDelivery(tx: Tx, endpointId: string, event: DomainEvent): Promise<DeliveryRow | null> {
  const [row] = await tx
    .insert(webhookDeliveries)
    .values({ endpointId, eventId: event.id, eventType: event.type, payload: event })
    .onConflictDoNothing()
    .returning();
  if (!row) return null;
  return queueDelivery(tx, row.id);
}

/** Enqueues (again) the sending of a delivery; it is pending until the receiver says 2xx. */
async function queueDelivery(tx: Tx, deliveryId: string): Promise<DeliveryRow> {
  const outboxId = await enqueue(tx, "webhook", { deliveryId });
  const [row] = await tx
    .update(webhookDeliveries)
    .set({ status: "pending", outboxId, deliveredAt: null })
    .where(eq(webhookDeliveries.id, deliveryId))
    .returning();
  return row;
}

/**
 * The "event" topic: one delivery per enabled endpoint subscribed to the event's type, each with its outbox message,
 * in one statement (most events have no subscriber: then it writes nothing). Run twice (a crashed worker's lease
 * expired), it adds nothing: one delivery per event per endpoint. Resolves to the outbox messages of the deliveries
 * it added (the worker sends them at once).
 */
export async function fanOut(db: DbOrTx, event: DomainEvent): Promise<string[]> {
  // Both ids are chosen first: a statement's parts cannot see each other's rows, so the delivery is written with
  // its message's id rather than updated after.
  const rows = await queryRows<{ id: string }>(
    db,
    sql`with subscribed as (
          select id as endpoint_id, gen_random_uuid() as delivery_id, gen_random_uuid() as outbox_id
          from ${webhookEndpoints} where enabled and ${event.type} = any(events)),
        added as (
          insert into ${webhookDeliveries} (id, endpoint_id, event_id, event_type, payload, status, outbox_id)
          select delivery_id, endpoint_id, ${event.id}, ${event.type}, ${JSON.stringify(event)}::jsonb, 'pending',
                 outbox_id
          from subscribed
          on conflict (endpoint_id, event_id) do nothing
          returning id, outbox_id)
        insert into ${outbox} (id, topic, payload)
        select outbox_id, 'webhook', jsonb_build_object('deliveryId', id) from added
        returning id`,
  );
  return rows.map((row) => row.id);
}

/** The exact headers a receiver verifies: Standard Webhooks, one v1 signature per live secret. */
export function signedHeaders(
  secrets: string[],
  webhookId: string,
  body: string,
  at = new Date(),
): Record<string, string> {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(webhookId, at, body));
  return {
    "content-type": "application/json",
    "user-agent": "Tranche-Webhooks/1",
    "webhook-id": webhookId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signatures.join(" "),
  };
}

class DeliveryFailed extends Error {}

/** The "webhook" topic: one attempt to deliver one delivery, logged whatever happens. */
export async function deliver(
  deps: Deps,
  message: OutboxMessage,
  now: () => Date,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
): Promise<void> {
  const { deliveryId } = message.payload as { deliveryId: string };
  const [found] = await deps.db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, deliveryId));
  // The endpoint was deleted (its deliveries with it), or a replay superseded this message: nothing to send.
  if (!found || found.delivery.outboxId !== message.id) return;
  const { delivery, endpoint } = found;
  if (!endpoint.enabled && delivery.eventType !== WEBHOOK_TEST_EVENT) {
    await markFailed(deps.db, deliveryId);
    throw new GiveUp("the endpoint is disabled");
  }
  const at = now();
  const started = performance.now();
  let result: SendResult;
  let refused = false;
  try {
    const target = await resolveTarget(endpoint.url, deps.env.WEBHOOK_ALLOW_PRIVATE);
    const body = JSON.stringify(delivery.payload);
    // Signed with the real time, not the worker's clock: receivers check it against theirs.
    result = await sendWebhook(
      target,
      body,
      signedHeaders(signingSecrets(deps, endpoint), delivery.id, body),
      timeoutMs,
    );
  } catch (error) {
    if (!(error instanceof TargetRefused)) throw error;
    refused = true;
    result = {
      statusCode: null,
      durationMs: Math.round(performance.now() - started),
      response: "",
      error: `refused: ${error.message}`,
    };
  }
  const ok = result.error === null;
  deps.metrics.webhookDelivery(ok ? "delivered" : refused ? "refused" : "failed");
  // The attempt and, when it succeeded, the delivery's new state: one statement, so both or neither.
  await deps.db.execute(
    sql`with attempt as (
          insert into ${webhookAttempts} (delivery_id, at, status_code, duration_ms, response, error)
          values (${deliveryId}, ${at.toISOString()}::timestamptz, ${result.statusCode}, ${result.durationMs},
                  ${result.response}, ${result.error}))
        update ${webhookDeliveries} set status = 'delivered', delivered_at = ${at.toISOString()}::timestamptz
        where id = ${deliveryId} and ${ok}`,
  );
  if (!ok) throw new DeliveryFailed(result.error ?? "failed");
}

async function markFailed(db: DbOrTx, deliveryId: string): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ status: "failed" })
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.status, "pending")));
}

/**
 * A delivery that failed for 24 hours: it is failed, and its endpoint is disabled with the admins told, so a dead
 * receiver stops collecting retries. A delivery given up because an admin turned the endpoint off changes nothing.
 */
export async function deliveryDead(deps: Deps, message: OutboxMessage, error: unknown): Promise<void> {
  const { deliveryId } = message.payload as { deliveryId: string };
  deps.metrics.webhookDelivery("dead");
  await deps.db.transaction(async (tx) => {
    const [delivery] = await tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
    if (!delivery || delivery.outboxId !== message.id) return;
    await markFailed(tx, deliveryId);
    if (error instanceof GiveUp || delivery.eventType === WEBHOOK_TEST_EVENT) return;
    const endpoint = await lockEndpoint(tx, delivery.endpointId);
    if (!endpoint.enabled) return;
    const reason = `Every attempt for 24 hours failed (last: ${error instanceof Error ? error.message : String(error)}).`;
    await tx
      .update(webhookEndpoints)
      .set({ enabled: false, disabledReason: reason.slice(0, 500), updatedAt: new Date() })
      .where(eq(webhookEndpoints.id, endpoint.id));
    await appendAudit(tx, {
      actorId: null,
      action: "webhook.endpoint_disabled",
      entityType: "webhook_endpoint",
      entityId: endpoint.id,
      before: { enabled: true },
      after: { enabled: false, reason },
    });
    const admins = await tx.select({ id: users.id }).from(users).where(eq(users.role, "admin"));
    await notify(
      tx,
      admins.map((a) => a.id),
      {
        title: "Webhook endpoint disabled",
        message: `Tranche stopped sending to ${endpoint.url}: ${reason} Fix the receiver, then enable the endpoint again in Settings.`,
        category: "integration",
        link: "/settings#webhooks",
      },
    );
  });
}

/** The two outbox topics of webhooks: "event" fans out, "webhook" delivers (`now` and `timeoutMs` for tests). */
export function webhookTopics(
  deps: Deps,
  now: () => Date = () => new Date(),
  timeoutMs = WEBHOOK_TIMEOUT_MS,
): Record<string, TopicConfig> {
  const checkpoints = sharedCheckpoints(deps.db, deps.auditKey);
  return {
    // Integrations first: a release instruction must not wait behind the emails of the same approvals.
    event: {
      priority: 10,
      retryDelaysMs: [5 * S, 30 * S, 2 * MIN],
      handle: async (m) => ({
        next: await fanOut(deps.db, await withReleaseCheckpoint(deps.db, deps.auditKey, m.payload, checkpoints)),
      }),
    },
    webhook: {
      priority: 10,
      retryDelaysMs: WEBHOOK_RETRY_DELAYS_MS,
      maxAttempts: WEBHOOK_MAX_ATTEMPTS,
      handle: (m) => deliver(deps, m, now, timeoutMs),
      onDead: (m, error) => deliveryDead(deps, m, error),
    },
  };
}

// ---------- what admins see and do ----------

const LOG_PAGE = 50;

function requireAdmin(ctx: ServiceContext) {
  if (ctx.actor.role !== "admin") throw forbidden("Only an admin can manage webhooks.");
}

async function requireEndpoint(ctx: ServiceContext, endpointId: string) {
  const [row] = await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
  if (!row) throw notFound("Webhook endpoint");
  return row;
}

/** Newest first: creation time to the microsecond, then id (deliveries created in one transaction share a time). */
const NEWEST = newestFirst("newest", webhookDeliveries.createdAt, webhookDeliveries.id);

/** The newest deliveries of an endpoint with every attempt, newest first, a page at a time (keyset, lib/keyset.ts). */
export async function listDeliveries(
  ctx: ServiceContext,
  endpointId: string,
  query: { cursor?: string; before?: string },
): Promise<{ items: WebhookDeliveryDto[]; nextCursor: string | null }> {
  requireAdmin(ctx);
  await requireEndpoint(ctx, endpointId);
  const set = keyset(NEWEST, query.cursor);
  const rows = await ctx.db
    .select({ delivery: webhookDeliveries, runAt: outbox.runAt, outboxStatus: outbox.status, keysetKeys: set.keys })
    .from(webhookDeliveries)
    .leftJoin(outbox, eq(outbox.id, webhookDeliveries.outboxId))
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        set.after,
        query.before ? lt(webhookDeliveries.createdAt, new Date(query.before)) : undefined,
      ),
    )
    .orderBy(...set.orderBy)
    .limit(LOG_PAGE + 1);
  const { page, nextCursor } = keysetPage(rows, LOG_PAGE, NEWEST);
  const ids = page.map((r) => r.delivery.id);
  const attempts = ids.length
    ? await ctx.db
        .select()
        .from(webhookAttempts)
        .where(inArray(webhookAttempts.deliveryId, ids))
        .orderBy(desc(webhookAttempts.id))
    : [];
  const byDelivery = new Map<string, WebhookAttemptDto[]>();
  for (const a of attempts) {
    const list = byDelivery.get(a.deliveryId) ?? [];
    list.push({
      at: a.at.toISOString(),
      statusCode: a.statusCode,
      durationMs: a.durationMs,
      response: a.response,
      error: a.error,
    });
    byDelivery.set(a.deliveryId, list);
  }
  return {
    items: page.map(({ delivery, runAt, outboxStatus }) => ({
      id: delivery.id,
      eventId: delivery.eventId,
      eventType: delivery.eventType,
      status: delivery.status as WebhookDeliveryStatus,
      createdAt: delivery.createdAt.toISOString(),
      nextAttemptAt:
        delivery.status === "pending" && outboxStatus === "pending" ? (runAt?.toISOString() ?? null) : null,
      payload: delivery.payload,
      attempts: byDelivery.get(delivery.id) ?? [],
    })),
    nextCursor,
  };
}

async function lockDelivery(tx: Tx, endpointId: string, deliveryId: string): Promise<DeliveryRow> {
  const [row] = await tx
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId)))
    .for("update");
  if (!row) throw notFound("Delivery");
  return row;
}

function auditDeliveryAction(tx: Tx, ctx: ServiceContext, action: string, delivery: DeliveryRow) {
  return appendAudit(tx, {
    actorId: ctx.actor.id,
    action,
    entityType: "webhook_endpoint",
    entityId: delivery.endpointId,
    after: { deliveryId: delivery.id, eventId: delivery.eventId, eventType: delivery.eventType },
  });
}

/** "Retry now": a pending delivery's next attempt runs now; a failed one is queued again. */
export async function retryDelivery(ctx: ServiceContext, endpointId: string, deliveryId: string): Promise<void> {
  requireAdmin(ctx);
  await ctx.db.transaction(async (tx) => {
    const delivery = await lockDelivery(tx, endpointId, deliveryId);
    if (delivery.status === "delivered")
      throw conflict("This delivery already succeeded; use Replay to send it again.");
    if (delivery.status === "pending" && delivery.outboxId) {
      await tx
        .update(outbox)
        .set({ runAt: new Date() })
        .where(and(eq(outbox.id, delivery.outboxId), eq(outbox.status, "pending")));
    } else {
      await queueDelivery(tx, deliveryId);
    }
    await auditDeliveryAction(tx, ctx, "webhook.delivery_retried", delivery);
  });
}

/** "Replay": sends the same event again with the same webhook-id (receivers dedupe by it). */
export async function replayDelivery(ctx: ServiceContext, endpointId: string, deliveryId: string): Promise<void> {
  requireAdmin(ctx);
  await ctx.db.transaction(async (tx) => {
    const delivery = await lockDelivery(tx, endpointId, deliveryId);
    if (delivery.status === "pending") throw conflict("This delivery is still being sent; use Retry now.");
    await queueDelivery(tx, deliveryId);
    await auditDeliveryAction(tx, ctx, "webhook.delivery_replayed", delivery);
  });
}

/** "Send test event": a `webhook.test` event to this endpoint alone (even while it is disabled). */
export async function sendTestEvent(ctx: ServiceContext, endpointId: string): Promise<{ deliveryId: string }> {
  requireAdmin(ctx);
  return ctx.db.transaction(async (tx) => {
    const endpoint = await lockEndpoint(tx, endpointId);
    const event: DomainEvent = {
      id: randomUUID(),
      type: WEBHOOK_TEST_EVENT,
      createdAt: new Date().toISOString(),
      data: {
        endpoint: { id: endpoint.id, url: endpoint.url },
        message: "A test event from Tranche: if your signature check passes, this endpoint is ready.",
        sentBy: { id: ctx.actor.id, name: ctx.actor.name },
      },
    };
    const delivery = await addDelivery(tx, endpoint.id, event);
    await appendAudit(tx, {
      actorId: ctx.actor.id,
      action: "webhook.test_sent",
      entityType: "webhook_endpoint",
      entityId: endpointId,
      after: { eventId: event.id, deliveryId: delivery?.id },
    });
    return { deliveryId: delivery?.id ?? "" };
  });
}
