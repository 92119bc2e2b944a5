import { and, eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Deps } from "../src/context";
import { openDatabase } from "../src/db/client";
import {
  auditEvents,
  notifications,
  outbox,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
} from "../src/db/schema";
import { publishEvent } from "../src/services/outbox/outbox";
import { createOutboxWorker } from "../src/services/outbox/worker";
import { isForbiddenAddress } from "../src/services/webhooks/address";
import {
  signedHeaders,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_DELAYS_MS,
  webhookTopics,
} from "../src/services/webhooks/deliveries";
import { sendWebhook } from "../src/services/webhooks/send";
import { createTestApp, type TestApp, type TestUser, usePostgres } from "./harness";
import { type Receiver, startReceiver } from "./webhook-receiver";

let t: TestApp;
let admin: TestUser;
let receiver: Receiver;

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: true });
  admin = await t.user("admin");
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  t.deps.env.WEBHOOK_ALLOW_PRIVATE = true;
  await t.deps.db.delete(webhookEndpoints);
  await t.deps.db.delete(outbox);
  receiver = await startReceiver();
});
afterEach(async () => {
  await receiver.close();
});

/** A clock the test moves by hand, a minute ahead so what was just enqueued is due. */
function clock(start = Date.now() + 60_000) {
  let at = start;
  return { now: () => new Date(at), advance: (ms: number) => (at += ms) };
}

function worker(now?: () => Date, timeoutMs?: number, deps: Deps = t.deps) {
  return createOutboxWorker(deps, webhookTopics(deps, now, timeoutMs), { now });
}

async function register(events: string[] = ["project.created"], path = "/hook") {
  const res = await t.request("POST", "/api/webhook-endpoints", {
    as: admin,
    body: { url: `${receiver.url}${path}`, events, description: "Custodian" },
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; secret: string; url: string; events: string[] };
}

async function publish(type = "project.created", data: Record<string, unknown> = { project: { name: "Solar" } }) {
  return t.deps.db.transaction((tx) => publishEvent(tx, type, data));
}

async function deliveriesOf(endpointId: string) {
  return t.deps.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));
}

describe("webhook endpoints API", () => {
  it("creates an endpoint, shows the whsec_ secret once, stores it encrypted and audits", async () => {
    const created = await register(["release.settled", "project.created"]);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    // Stored in the order of the catalogue, not the order sent.
    expect(created.events).toEqual(["release.settled", "project.created"]);

    const list = await t.request("GET", "/api/webhook-endpoints", { as: admin });
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain(created.secret);
    const [row] = await t.deps.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, created.id));
    expect(row.secretEnc).not.toContain(created.secret.slice(6));
    expect(t.deps.webhookSecrets.open(row.secretEnc)).toBe(created.secret);

    const audit = await t.deps.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityType, "webhook_endpoint"), eq(auditEvents.entityId, created.id)));
    expect(audit.map((a) => a.action)).toEqual(["webhook.endpoint_created"]);
    expect(JSON.stringify(audit)).not.toContain(created.secret);
  });

  it("answers 400 naming an unknown event type, 403 to non-admins, and changes nothing", async () => {
    const bad = await t.request("POST", "/api/webhook-endpoints", {
      as: admin,
      body: { url: `${receiver.url}/x`, events: ["release.settled", "payment.made"] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('"payment.made"');
    expect(bad.body.error.details.events).toContain("payment.made");
    for (const role of ["project_owner", "investor", "verifier"] as const) {
      const res = await t.request("POST", "/api/webhook-endpoints", {
        as: await t.user(role),
        body: { url: `${receiver.url}/x`, events: ["project.created"] },
      });
      expect(res.status).toBe(403);
    }
    expect(await t.deps.db.select().from(webhookEndpoints)).toHaveLength(0);
  });

  it("patches, disables, rotates (both secrets sign for 24 h) and deletes", async () => {
    const created = await register();
    const patched = await t.request("PATCH", `/api/webhook-endpoints/${created.id}`, {
      as: admin,
      body: { events: ["release.instructed"], description: "Escrow agent", enabled: false },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ events: ["release.instructed"], description: "Escrow agent", enabled: false });

    const rotated = await t.request("POST", `/api/webhook-endpoints/${created.id}/rotate-secret`, { as: admin });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.secret);
    const expires = new Date(rotated.body.previousSecretExpiresAt).getTime();
    expect(Math.abs(expires - (Date.now() + 24 * 3600_000))).toBeLessThan(60_000);

    await t.request("PATCH", `/api/webhook-endpoints/${created.id}`, {
      as: admin,
      body: { enabled: true, events: ["project.created"] },
    });
    await publish();
    await worker().drain();
    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    expect(got.headers["webhook-signature"].split(" ")).toHaveLength(2);
    // A receiver holding either secret accepts it.
    for (const secret of [created.secret, rotated.body.secret]) {
      expect(new Webhook(secret).verify(got.body, got.headers)).toMatchObject({ type: "project.created" });
    }

    const removed = await t.request("DELETE", `/api/webhook-endpoints/${created.id}`, { as: admin });
    expect(removed.status).toBe(204);
    expect((await t.request("GET", `/api/webhook-endpoints/${created.id}`, { as: admin })).status).toBe(404);
    const actions = await t.deps.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.entityId, created.id));
    expect(actions.map((a) => a.action)).toEqual([
      "webhook.endpoint_created",
      "webhook.endpoint_updated",
      "webhook.secret_rotated",
      "webhook.endpoint_updated",
      "webhook.endpoint_deleted",
    ]);
  });

  it("refuses private, loopback, link-local, CGNAT, metadata and unspecified targets, and http, without the flag", async () => {
    t.deps.env.WEBHOOK_ALLOW_PRIVATE = false;
    const refused = [
      "https://127.0.0.1/hook",
      "https://10.1.2.3/hook",
      "https://172.16.0.9/hook",
      "https://192.168.1.1/hook",
      "https://169.254.169.254/latest/meta-data",
      "https://100.64.0.1/hook",
      "https://100.100.100.200/hook",
      "https://0.0.0.0/hook",
      "https://[::1]/hook",
      "https://[::]/hook",
      "https://[fe80::1]/hook",
      "https://[fd00:ec2::254]/hook",
      "https://[::ffff:127.0.0.1]/hook",
      "https://[::ffff:a9fe:a9fe]/hook",
      "https://[::127.0.0.1]/hook",
      "https://[64:ff9b::10.0.0.1]/hook",
      "https://[::ffff:0:7f00:1]/hook",
      "https://[2002:7f00:1::]/hook",
      "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook",
      "https://[64:ff9b:1::a00:1]/hook",
      "https://[fec0::1]/hook",
      "https://2130706433/hook",
      "https://localhost/hook",
    ];
    for (const url of refused) {
      const res = await t.request("POST", "/api/webhook-endpoints", {
        as: admin,
        body: { url, events: ["project.created"] },
      });
      expect(res.status, url).toBe(400);
      expect(res.body.error.details, url).toHaveProperty("url");
    }
    const plain = await t.request("POST", "/api/webhook-endpoints", {
      as: admin,
      body: { url: "http://203.0.113.10/hook", events: ["project.created"] },
    });
    expect(plain.status).toBe(400);
    expect(plain.body.error.message).toContain("https");
    expect(await t.deps.db.select().from(webhookEndpoints)).toHaveLength(0);

    for (const ok of ["8.8.8.8", "203.0.113.10", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) {
      expect(isForbiddenAddress(ok), ok).toBe(false);
    }
  });
});

describe("webhook delivery", () => {
  it("publishes project.created with the project: a receiver verifies it with standardwebhooks", async () => {
    const endpoint = await register(["project.created"]);
    const owner = await t.user("project_owner", { name: "Ada Owner" });
    const res = await t.request("POST", "/api/projects", {
      as: owner,
      body: { name: "Harbour Wind", description: "D", location: "L", totalCapital: 2500000, currency: "EUR" },
    });
    expect(res.status).toBe(201);
    expect(await worker().drain()).toBe(2); // the event, then its one delivery

    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    expect(got.path).toBe("/hook");
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["webhook-signature"]).toMatch(/^v1,/);
    const event = new Webhook(endpoint.secret).verify(got.body, got.headers) as Record<string, any>;
    expect(event).toMatchObject({
      type: "project.created",
      data: {
        project: { id: res.body.id, name: "Harbour Wind", totalCapital: "2500000.00", currency: "EUR" },
        owner: { id: owner.id, name: "Ada Owner" },
      },
    });
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(got.headers["webhook-id"]).toBe(delivery.id);
    expect(delivery).toMatchObject({ status: "delivered", eventId: event.id });

    // A changed body, a stale timestamp or another secret fail verification.
    const wh = new Webhook(endpoint.secret);
    expect(() => wh.verify(got.body.replace("Harbour Wind", "Harbour Wine"), got.headers)).toThrow();
    const stale = signedHeaders([endpoint.secret], delivery.id, got.body, new Date(Date.now() - 10 * 60_000));
    expect(() => wh.verify(got.body, stale)).toThrow(/too old/i);
    const other = await register(["audit.checkpoint"]);
    expect(() => new Webhook(other.secret).verify(got.body, got.headers)).toThrow();
  });

  it("sends nothing for a rolled-back change, and only to enabled endpoints subscribed to the type", async () => {
    const subscribed = await register(["project.created"]);
    await register(["release.settled"]);
    const off = await register(["project.created"]);
    await t.request("PATCH", `/api/webhook-endpoints/${off.id}`, { as: admin, body: { enabled: false } });
    await t.deps.db
      .transaction(async (tx) => {
        await publishEvent(tx, "project.created", { project: { name: "rolled back" } });
        tx.rollback();
      })
      .catch(() => {});
    await worker().drain();
    expect(receiver.received).toHaveLength(0);
    expect(await t.deps.db.select().from(webhookDeliveries)).toHaveLength(0);

    await publish();
    await worker().drain();
    expect(receiver.received).toHaveLength(1);
    expect((await t.deps.db.select().from(webhookDeliveries)).map((d) => d.endpointId)).toEqual([subscribed.id]);
  });

  it("retries 500, 500, then 200 on schedule with one webhook-id, and logs each attempt", async () => {
    const c = clock();
    let calls = 0;
    receiver.answer = (_, res) => {
      calls++;
      res.statusCode = calls < 3 ? 500 : 200;
      res.end(calls < 3 ? `boom ${calls}` : "thanks");
    };
    const endpoint = await register();
    await publish();
    const w = worker(c.now);
    await w.drain();
    expect(calls).toBe(1);
    c.advance(4_999);
    await w.drain();
    expect(calls).toBe(1);
    c.advance(1);
    await w.drain();
    expect(calls).toBe(2);
    c.advance(30_000);
    await w.drain();
    expect(calls).toBe(3);

    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).toBe(1);
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery.status).toBe("delivered");
    const log = await t.request("GET", `/api/webhook-endpoints/${endpoint.id}/deliveries`, { as: admin });
    expect(log.status).toBe(200);
    expect(log.body.items).toHaveLength(1);
    expect(log.body.items[0]).toMatchObject({
      id: delivery.id,
      eventType: "project.created",
      status: "delivered",
      payload: { type: "project.created", data: { project: { name: "Solar" } } },
    });
    expect(log.body.items[0].attempts.map((a: any) => [a.statusCode, a.response])).toEqual([
      [200, "thanks"],
      [500, "boom 2"],
      [500, "boom 1"],
    ]);
    expect(log.body.items[0].attempts[0].durationMs).toBeGreaterThanOrEqual(0);
  });

  it("keeps the first 1 kB of a response and does not follow redirects", async () => {
    const endpoint = await register(["project.created"], "/moved");
    receiver.answer = (req, res) => {
      if (req.path === "/moved") {
        res.writeHead(302, { location: `${receiver.url}/elsewhere` });
        res.end("x".repeat(5000));
      } else res.end("should never be reached");
    };
    await publish();
    await worker().drain();
    expect(receiver.received.map((r) => r.path)).toEqual(["/moved"]);
    const [attempt] = await t.deps.db.select().from(webhookAttempts);
    expect(attempt.statusCode).toBe(302);
    expect(attempt.response).toHaveLength(1024);
    expect(attempt.error).toContain("not followed");
    expect((await deliveriesOf(endpoint.id))[0].status).toBe("pending");
  });

  it("logs a response with a NUL character and takes its 2xx as delivered, sending it once", async () => {
    // The receiver's answer is whatever it sends: text PostgreSQL cannot store must not lose the attempt.
    receiver.answer = (_, res) => void res.end("ok\u0000accepted");
    const endpoint = await register();
    await publish();
    const c = clock();
    const w = worker(c.now);
    await w.drain();
    c.advance(60_000);
    await w.drain();
    expect(receiver.received).toHaveLength(1);
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery.status).toBe("delivered");
    const attempts = await t.deps.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, delivery.id));
    expect(attempts.map((a) => [a.statusCode, a.response, a.error])).toEqual([[200, "ok\ufffdaccepted", null]]);
  });

  it("retries a receiver that never answers on schedule for 24 h, then disables it and tells the admins", async () => {
    const c = clock();
    const start = c.now().getTime();
    receiver.answer = () => {}; // holds the connection, never answers
    const endpoint = await register();
    await publish();
    const w = worker(c.now, 300);
    await w.drain();
    const offsets: number[] = [];
    for (let i = 0; i < 40; i++) {
      const [message] = await t.deps.db.select().from(outbox).where(eq(outbox.topic, "webhook"));
      if (message.status !== "pending") break;
      c.advance(message.runAt.getTime() - c.now().getTime());
      offsets.push(c.now().getTime() - start);
      await w.drain();
    }
    const S = 1000;
    const H = 3600 * S;
    // 5 s, 30 s, 2 min, 10 min, 1 h, then hourly: attempt 28 at 23 h 12 min 35 s, the last within 24 h.
    expect(offsets.slice(0, 6)).toEqual([5 * S, 35 * S, 155 * S, 755 * S, 755 * S + H, 755 * S + 2 * H]);
    expect(offsets).toHaveLength(WEBHOOK_MAX_ATTEMPTS - 1);
    expect(offsets.at(-1)).toBe(755 * S + 23 * H);
    expect(WEBHOOK_RETRY_DELAYS_MS.at(-1)).toBe(H);
    expect(receiver.received).toHaveLength(WEBHOOK_MAX_ATTEMPTS);

    const attempts = await t.deps.db.select().from(webhookAttempts);
    expect(attempts).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
    expect(attempts.every((a) => a.statusCode === null && a.error?.includes("no answer"))).toBe(true);
    const [row] = await t.deps.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(row.enabled).toBe(false);
    expect(row.disabledReason).toContain("24 hours");
    expect((await deliveriesOf(endpoint.id))[0].status).toBe("failed");
    const told = await t.deps.db.select().from(notifications).where(eq(notifications.userId, admin.id));
    expect(told.map((n) => n.title)).toContain("Webhook endpoint disabled");
    const disabled = await t.deps.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, endpoint.id), eq(auditEvents.action, "webhook.endpoint_disabled")));
    expect(disabled).toHaveLength(1);

    // Disabled: new events are not fanned out to it.
    await publish();
    await w.drain();
    expect(await deliveriesOf(endpoint.id)).toHaveLength(1);
  });

  it("Retry now runs a failed delivery again; Replay resends a delivered one with the same webhook-id", async () => {
    let fail = true;
    receiver.answer = (_, res) => {
      res.statusCode = fail ? 503 : 204;
      res.end();
    };
    const endpoint = await register();
    await publish();
    const c = clock();
    const w = worker(c.now);
    await w.drain();
    const [delivery] = await deliveriesOf(endpoint.id);
    const base = `/api/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}`;

    // Pending, next attempt in 5 s: Retry now makes it due at once (without moving the clock past 5 s).
    expect((await t.request("POST", `${base}/replay`, { as: admin })).status).toBe(409);
    fail = false;
    expect((await t.request("POST", `${base}/retry`, { as: admin })).status).toBe(202);
    c.advance(1);
    await w.drain();
    expect(receiver.received).toHaveLength(2);
    expect((await deliveriesOf(endpoint.id))[0].status).toBe("delivered");
    expect((await t.request("POST", `${base}/retry`, { as: admin })).status).toBe(409);

    expect((await t.request("POST", `${base}/replay`, { as: admin })).status).toBe(202);
    await w.drain();
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"]))).toEqual(new Set([delivery.id]));

    // A failed one (the endpoint was switched off meanwhile) runs again after it is switched back on.
    fail = true;
    await t.request("POST", `${base}/replay`, { as: admin });
    await t.request("PATCH", `/api/webhook-endpoints/${endpoint.id}`, { as: admin, body: { enabled: false } });
    await w.drain();
    expect((await deliveriesOf(endpoint.id))[0].status).toBe("failed");
    fail = false;
    await t.request("PATCH", `/api/webhook-endpoints/${endpoint.id}`, { as: admin, body: { enabled: true } });
    expect((await t.request("POST", `${base}/retry`, { as: admin })).status).toBe(202);
    await w.drain();
    expect((await deliveriesOf(endpoint.id))[0].status).toBe("delivered");
    expect((await t.request("POST", `${base}/retry`, { as: await t.user("investor") })).status).toBe(403);
  });

  it("pages the delivery log newest first, 50 at a time", async () => {
    const endpoint = await register();
    const sent: string[] = [];
    for (let i = 0; i < 53; i++) {
      const res = await t.request("POST", `/api/webhook-endpoints/${endpoint.id}/test`, { as: admin });
      sent.push(res.body.deliveryId);
    }
    const base = `/api/webhook-endpoints/${endpoint.id}/deliveries`;
    const first = await t.request("GET", base, { as: admin });
    expect(first.body.items).toHaveLength(50);
    expect(first.body.items[0].id).toBe(sent.at(-1));
    const second = await t.request("GET", `${base}?cursor=${first.body.nextCursor}`, { as: admin });
    expect(second.body.nextCursor).toBeNull();
    const ids = [...first.body.items, ...second.body.items].map((d: { id: string }) => d.id);
    expect(ids).toEqual([...sent].reverse());
    expect((await t.request("GET", `${base}?before=yesterday`, { as: admin })).status).toBe(400);
    expect((await t.request("GET", `${base}?cursor=yesterday`, { as: admin })).status).toBe(400);
    // The older form still reads: deliveries created before a time.
    const older = await t.request("GET", `${base}?before=${encodeURIComponent(first.body.items[0].createdAt)}`, {
      as: admin,
    });
    expect(older.body.items.map((d: { id: string }) => d.id)).not.toContain(sent.at(-1));
  });

  it("pages deliveries created in the same millisecond without skipping any", async () => {
    const endpoint = await register();
    const base = `/api/webhook-endpoints/${endpoint.id}/deliveries`;
    // 60 deliveries a microsecond apart, all in one millisecond: a cursor rounded to the millisecond skipped the
    // second page.
    await t.deps.db.execute(sql`
      insert into webhook_deliveries (endpoint_id, event_id, event_type, payload, status, created_at)
      select ${endpoint.id}::uuid, 'evt_same_ms_' || g, 'release.instructed', '{}'::jsonb, 'delivered',
             '2026-01-01T00:00:00.000Z'::timestamptz + (g || ' microseconds')::interval
      from generate_series(1, 60) g`);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const { body }: { body: { items: { id: string }[]; nextCursor: string | null } } = await t.request(
        "GET",
        cursor ? `${base}?cursor=${cursor}` : base,
        { as: admin },
      );
      seen.push(...body.items.map((d) => d.id));
      cursor = body.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(60);
    expect(new Set(seen).size).toBe(60);
  });

  it("delivers, with the same webhook-id, what a process killed mid-delivery left leased", async () => {
    const endpoint = await register();
    await publish();
    // Fan out only, as the dead process did before it was killed while sending.
    await createOutboxWorker(t.deps, { event: webhookTopics(t.deps).event }).drain();
    const [delivery] = await deliveriesOf(endpoint.id);
    const c = clock();
    await t.deps.db
      .update(outbox)
      .set({ attempts: 1, lockedUntil: new Date(c.now().getTime() + 60_000) })
      .where(eq(outbox.id, delivery.outboxId ?? ""));

    const restarted = worker(c.now);
    expect(await restarted.drain()).toBe(0);
    expect(receiver.received).toHaveLength(0);
    c.advance(60_000);
    expect(await restarted.drain()).toBe(1);
    expect(receiver.received.map((r) => r.headers["webhook-id"])).toEqual([delivery.id]);
    expect((await deliveriesOf(endpoint.id))[0].status).toBe("delivered");
  });

  it("sends a webhook.test event to one endpoint on request", async () => {
    const endpoint = await register(["release.settled"]);
    const res = await t.request("POST", `/api/webhook-endpoints/${endpoint.id}/test`, { as: admin });
    expect(res.status).toBe(202);
    await worker().drain();
    expect(receiver.received).toHaveLength(1);
    const event = new Webhook(endpoint.secret).verify(receiver.received[0].body, receiver.received[0].headers);
    expect(event).toMatchObject({ type: "webhook.test", data: { endpoint: { id: endpoint.id } } });
    expect(receiver.received[0].headers["webhook-id"]).toBe(res.body.deliveryId);
  });

  it("refuses a private address at delivery time too, without connecting", async () => {
    const endpoint = await register();
    t.deps.env.WEBHOOK_ALLOW_PRIVATE = false;
    await publish();
    await worker().drain();
    expect(receiver.received).toHaveLength(0);
    const [attempt] = await t.deps.db.select().from(webhookAttempts);
    expect(attempt).toMatchObject({ statusCode: null });
    expect(attempt.error).toMatch(/^refused: .*https|private/);
    expect((await deliveriesOf(endpoint.id))[0].status).toBe("pending");
  });

  it("connects to the checked address, never asking DNS again (no rebinding)", async () => {
    const port = new URL(receiver.url).port;
    const result = await sendWebhook(
      { url: new URL(`http://rebinding.invalid:${port}/pinned`), address: "127.0.0.1", family: 4 },
      "{}",
      { "content-type": "application/json" },
    );
    expect(result).toMatchObject({ statusCode: 200, error: null, response: "ok" });
    expect(receiver.received[0]).toMatchObject({ path: "/pinned", headers: { host: `rebinding.invalid:${port}` } });
  });

  it.runIf(usePostgres)("two workers on one database deliver every event once, never one twice at a time", async () => {
    const second = await openDatabase({ url: t.deps.env.DATABASE_URL });
    const otherDeps: Deps = { ...t.deps, database: second, db: second.db };
    const inFlight = new Set<string>();
    let overlaps = 0;
    receiver.answer = (req, res) => {
      const id = req.headers["webhook-id"];
      if (inFlight.has(id)) overlaps++;
      inFlight.add(id);
      setTimeout(() => {
        inFlight.delete(id);
        res.end("ok");
      }, 5);
    };
    try {
      await register();
      const ids: string[] = [];
      for (let i = 0; i < 30; i++) ids.push(await publish("project.created", { n: i }));
      const a = createOutboxWorker(t.deps, webhookTopics(t.deps), { batchSize: 3 });
      const b = createOutboxWorker(otherDeps, webhookTopics(otherDeps), { batchSize: 3 });
      const [ranA, ranB] = await Promise.all([a.drain(), b.drain()]);
      expect(ranA + ranB).toBe(60);
      expect(ranA).toBeGreaterThan(0);
      expect(ranB).toBeGreaterThan(0);
      expect(overlaps).toBe(0);
      expect(receiver.received).toHaveLength(30);
      expect(new Set(receiver.received.map((r) => JSON.parse(r.body).id))).toEqual(new Set(ids));
      expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).toBe(30);
    } finally {
      await second.close();
    }
  });
});
