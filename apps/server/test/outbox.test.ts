import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Deps } from "../src/context";
import { openDatabase } from "../src/db/client";
import { outbox, webhookEndpoints } from "../src/db/schema";
import { queueEmail } from "../src/services/email/queue";
import { enqueue, type OutboxMessage, publishEvent, publishEvents } from "../src/services/outbox/outbox";
import { outboxTopics } from "../src/services/outbox/topics";
import { createOutboxWorker, GiveUp, type TopicConfig } from "../src/services/outbox/worker";
import { createTestApp, type TestApp, usePostgres } from "./harness";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.deps.db.delete(outbox);
});

/** A clock the test moves by hand. */
function clock(start = Date.now()) {
  let at = start;
  return { now: () => new Date(at), advance: (ms: number) => (at += ms) };
}

async function rowOf(id: string) {
  const [row] = await t.deps.db.select().from(outbox).where(eq(outbox.id, id));
  return row;
}

describe("outbox", () => {
  it("sends nothing for a rolled-back transaction and exactly what committed", async () => {
    const seen: OutboxMessage[] = [];
    const worker = createOutboxWorker(t.deps, {
      greet: { retryDelaysMs: [1000], handle: async (m) => void seen.push(m) },
    });
    await t.deps.db
      .transaction(async (tx) => {
        await enqueue(tx, "greet", { to: "rolled back" });
        tx.rollback();
      })
      .catch(() => {});
    const id = await t.deps.db.transaction((tx) => enqueue(tx, "greet", { to: "committed" }));

    expect(await worker.drain()).toBe(1);
    expect(seen.map((m) => m.payload)).toEqual([{ to: "committed" }]);
    expect(seen[0]).toMatchObject({ id, topic: "greet", attempts: 1 });
    expect(await rowOf(id)).toMatchObject({ status: "done", attempts: 1, lastError: null });
    expect(await worker.drain()).toBe(0);
  });

  it("claims due messages of a higher priority first, then by when they became due", async () => {
    const seen: string[] = [];
    const handle = async (m: OutboxMessage) => void seen.push(m.payload.n);
    const worker = createOutboxWorker(
      t.deps,
      { mail: { retryDelaysMs: [1000], handle }, instruction: { priority: 10, retryDelaysMs: [1000], handle } },
      { batchSize: 1 },
    );
    const at = (s: number) => new Date(Date.now() - 60_000 + s * 1000);
    for (const [topic, n, s] of [
      ["mail", "mail 1", 1],
      ["mail", "mail 2", 2],
      ["instruction", "instruction 1", 3],
      ["mail", "mail 3", 4],
      ["instruction", "instruction 2", 5],
    ] as const) {
      await enqueue(t.deps.db, topic, { n }, { runAt: at(s) });
    }
    expect(await worker.drain()).toBe(5);
    expect(seen).toEqual(["instruction 1", "instruction 2", "mail 1", "mail 2", "mail 3"]);
  });

  it("retries on its schedule, the last delay repeating, with the same message id", async () => {
    const c = clock();
    let calls = 0;
    const ids: string[] = [];
    const worker = createOutboxWorker(
      t.deps,
      {
        flaky: {
          retryDelaysMs: [5_000, 30_000],
          handle: async (m) => {
            ids.push(m.id);
            calls++;
            if (calls < 4) throw new Error(`receiver answered 500 (${calls})`);
          },
        },
      },
      { now: c.now },
    );
    const id = await enqueue(t.deps.db, "flaky", {}, { runAt: c.now() });

    expect(await worker.drain()).toBe(1);
    expect(await rowOf(id)).toMatchObject({ status: "pending", attempts: 1, lastError: "receiver answered 500 (1)" });
    c.advance(4_999);
    expect(await worker.drain()).toBe(0);
    c.advance(1);
    expect(await worker.drain()).toBe(1);
    c.advance(29_999);
    expect(await worker.drain()).toBe(0);
    c.advance(1);
    expect(await worker.drain()).toBe(1);
    c.advance(30_000); // the last delay repeats
    expect(await worker.drain()).toBe(1);
    expect(await rowOf(id)).toMatchObject({ status: "done", attempts: 4 });
    expect(new Set(ids)).toEqual(new Set([id]));
  });

  it("gives up at once on GiveUp, or after maxAttempts, and tells onDead", async () => {
    const dead: string[] = [];
    const topics: Record<string, TopicConfig> = {
      refused: {
        retryDelaysMs: [0],
        handle: async () => {
          throw new GiveUp("address refused");
        },
        onDead: async (m) => void dead.push(m.id),
      },
      tired: {
        retryDelaysMs: [0],
        maxAttempts: 3,
        handle: async () => {
          throw new Error("timeout");
        },
        onDead: async (m) => void dead.push(m.id),
      },
    };
    const worker = createOutboxWorker(t.deps, topics);
    const refused = await enqueue(t.deps.db, "refused", {});
    const tired = await enqueue(t.deps.db, "tired", {});

    expect(await worker.drain()).toBe(4);
    expect(await rowOf(refused)).toMatchObject({ status: "dead", attempts: 1, lastError: "address refused" });
    expect(await rowOf(tired)).toMatchObject({ status: "dead", attempts: 3, lastError: "timeout" });
    expect(dead.sort()).toEqual([refused, tired].sort());
  });

  it("leaves other topics alone and reruns a message whose process died once its lease expires", async () => {
    const c = clock();
    const handled: string[] = [];
    const worker = createOutboxWorker(
      t.deps,
      { mine: { retryDelaysMs: [1000], handle: async (m) => void handled.push(m.id) } },
      { now: c.now, leaseMs: 60_000 },
    );
    const other = await enqueue(t.deps.db, "someone-else", {});
    const crashed = await enqueue(t.deps.db, "mine", {});
    // What a process killed mid-delivery leaves: claimed, leased, never settled.
    await t.deps.db
      .update(outbox)
      .set({ attempts: 1, lockedUntil: new Date(c.now().getTime() + 60_000) })
      .where(eq(outbox.id, crashed));

    expect(await worker.drain()).toBe(0);
    c.advance(60_000);
    expect(await worker.drain()).toBe(1);
    expect(handled).toEqual([crashed]);
    expect(await rowOf(crashed)).toMatchObject({ status: "done", attempts: 2 });
    expect(await rowOf(other)).toMatchObject({ status: "pending", attempts: 0 });
  });

  it("wakes a started worker as soon as a message commits", async () => {
    const handled: string[] = [];
    const worker = createOutboxWorker(
      t.deps,
      { instant: { retryDelaysMs: [1000], handle: async (m) => void handled.push(m.payload.n) } },
      { pollMs: 60_000 },
    );
    worker.start();
    try {
      await new Promise((r) => setTimeout(r, 200));
      await t.deps.db.transaction((tx) => enqueue(tx, "instant", { n: "one" }));
      const deadline = Date.now() + 5_000;
      while (handled.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(handled).toEqual(["one"]);
    } finally {
      await worker.stop();
    }
  });

  it("records what a handler says of a message in the statement that marks it done, and runs what it wrote next", async () => {
    const ran: string[] = [];
    const worker = createOutboxWorker(t.deps, {
      parent: {
        retryDelaysMs: [1000],
        handle: async (m) => {
          ran.push(m.payload.n);
          const child = await enqueue(t.deps.db, "child", { n: "child" });
          return { next: [child], record: { via: "test", note: "handled" } };
        },
      },
      child: { retryDelaysMs: [1000], handle: async (m) => void ran.push(m.payload.n) },
    });
    const id = await enqueue(t.deps.db, "parent", { n: "parent" });
    expect(await worker.drain()).toBe(2);
    expect(ran).toEqual(["parent", "child"]);
    expect(await rowOf(id)).toMatchObject({
      status: "done",
      payload: { n: "parent", via: "test", note: "handled" },
      lockedUntil: null,
      leaseToken: null,
    });
  });

  it("publishes domain events as { id, type, createdAt, data }", async () => {
    const eventId = await t.deps.db.transaction((tx) => publishEvent(tx, "project.created", { projectId: "p1" }));
    const [row] = await t.deps.db.select().from(outbox).where(eq(outbox.topic, "event"));
    expect(row.payload).toEqual({
      id: eventId,
      type: "project.created",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      data: { projectId: "p1" },
    });
  });

  it("keeps an event no enabled endpoint subscribes to as done, so no worker claims it; a subscribed one waits for its fan-out", async () => {
    await t.deps.db.insert(webhookEndpoints).values([
      { url: "https://custodian.example/hook", events: ["release.settled"], secretEnc: "unused" },
      { url: "https://off.example/hook", events: ["project.created"], secretEnc: "unused", enabled: false },
    ]);
    try {
      const [created, settled] = await t.deps.db.transaction((tx) =>
        publishEvents(tx, [
          { type: "project.created", data: { projectId: "p1" } },
          { type: "release.settled", data: { releaseId: "r1" } },
        ]),
      );
      const rows = await t.deps.db.select().from(outbox).where(eq(outbox.topic, "event"));
      const of = (id: string) => rows.find((row) => (row.payload as { id: string }).id === id);
      expect(of(created)).toMatchObject({ status: "done", doneAt: expect.any(Date), attempts: 0 });
      expect(of(settled)).toMatchObject({ status: "pending", doneAt: null });
      const fannedOut: string[] = [];
      const worker = createOutboxWorker(t.deps, {
        event: { retryDelaysMs: [1000], handle: async (m) => void fannedOut.push(m.payload.type) },
      });
      expect(await worker.drain()).toBe(1);
      expect(fannedOut).toEqual(["release.settled"]);
    } finally {
      await t.deps.db.delete(webhookEndpoints);
    }
  });

  it.runIf(usePostgres)("shares work between processes: every message once, never two at a time", async () => {
    const second = await openDatabase({ url: t.deps.env.DATABASE_URL });
    const otherDeps: Deps = { ...t.deps, database: second, db: second.db };
    const runs = new Map<string, number>();
    let inFlight = new Set<string>();
    let overlaps = 0;
    const topic = (): Record<string, TopicConfig> => ({
      job: {
        retryDelaysMs: [0],
        handle: async (m) => {
          if (inFlight.has(m.id)) overlaps++;
          inFlight.add(m.id);
          runs.set(m.id, (runs.get(m.id) ?? 0) + 1);
          await new Promise((r) => setTimeout(r, 5));
          inFlight.delete(m.id);
        },
      },
    });
    try {
      const ids = await t.deps.db.transaction(async (tx) => {
        const out: string[] = [];
        for (let i = 0; i < 60; i++) out.push(await enqueue(tx, "job", { i }));
        return out;
      });
      const a = createOutboxWorker(t.deps, topic(), { batchSize: 4 });
      const b = createOutboxWorker(otherDeps, topic(), { batchSize: 4 });
      const [ranA, ranB] = await Promise.all([a.drain(), b.drain()]);
      expect(ranA + ranB).toBe(60);
      expect(ranA).toBeGreaterThan(0);
      expect(ranB).toBeGreaterThan(0);
      expect(overlaps).toBe(0);
      expect([...runs.values()].every((n) => n === 1)).toBe(true);
      expect(new Set(runs.keys())).toEqual(new Set(ids));
      inFlight = new Set();
    } finally {
      await second.close();
    }
  });
});

describe("the outbox lease", () => {
  it("a handler that outlives its lease does not settle the message over the claim that now holds it", async () => {
    const c = clock();
    const sent: string[] = [];
    let releaseFirst: () => void = () => {};
    const firstRunning = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    let calls = 0;
    let releaseSecond: () => void = () => {};
    const topics: Record<string, TopicConfig> = {
      slow: {
        retryDelaysMs: [1000],
        handle: async (m) => {
          calls++;
          const mine = calls;
          if (mine === 1) await firstRunning;
          else await new Promise<void>((resolve) => (releaseSecond = resolve));
          sent.push(`${m.id}#${mine}`);
        },
      },
    };
    const first = createOutboxWorker(t.deps, topics, { now: c.now, leaseMs: 60_000 });
    const second = createOutboxWorker(t.deps, topics, { now: c.now, leaseMs: 60_000 });
    const id = await enqueue(t.deps.db, "slow", {}, { runAt: c.now() });

    const firstRun = first.drain();
    while (calls < 1) await new Promise((r) => setTimeout(r, 5));
    // The first claim's lease runs out; another process claims the message and is still sending.
    c.advance(60_001);
    const secondRun = second.drain();
    while (calls < 2) await new Promise((r) => setTimeout(r, 5));
    const held = await rowOf(id);
    expect(held).toMatchObject({ status: "pending", attempts: 2 });

    // The first handler finally finishes: it must not mark done what the second claim holds.
    releaseFirst();
    await firstRun;
    expect(await rowOf(id)).toMatchObject({
      status: "pending",
      attempts: 2,
      leaseToken: held.leaseToken,
      lockedUntil: held.lockedUntil,
    });

    releaseSecond();
    await secondRun;
    expect(await rowOf(id)).toMatchObject({ status: "done", attempts: 2, leaseToken: null });
    expect(sent).toEqual([`${id}#1`, `${id}#2`]);
  });

  it("a handler that hangs fails at three quarters of its lease, while its claim still holds the message", async () => {
    const worker = createOutboxWorker(
      t.deps,
      { hangs: { retryDelaysMs: [60_000], handle: () => new Promise<void>(() => {}) } },
      // Long enough that recording the failure fits in the last quarter on a loaded machine: with 400 ms, a CI run
      // whose write took over 100 ms saw the lease lapse first and the message claimed a second time.
      { leaseMs: 2_000 },
    );
    const id = await enqueue(t.deps.db, "hangs", {});
    const started = Date.now();
    expect(await worker.drain()).toBe(1);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(await rowOf(id)).toMatchObject({
      status: "pending",
      attempts: 1,
      leaseToken: null,
      lastError: "handler did not finish within 1500 ms of its 2000 ms lease",
    });
  });

  it("an SMTP server that never answers fails the send well inside the lease (nodemailer waits 30 s by default)", async () => {
    // Accepts connections and never says a word.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    const app = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, OUTBOX_LEASE_MS: 15_000 });
    try {
      const id = await queueEmail(app.deps.db, "someone@example.test", "invitation", {
        subject: "Hello",
        text: "Hello.",
        html: "<p>Hello.</p>",
        link: "https://tranche.example/invite",
      });
      const started = Date.now();
      await createOutboxWorker(app.deps, outboxTopics(app.deps), { leaseMs: 15_000 }).drain();
      const took = Date.now() - started;
      expect(took).toBeLessThan(15_000 / 2);
      const [row] = await app.deps.db.select().from(outbox).where(eq(outbox.id, id));
      expect(row).toMatchObject({ status: "pending", attempts: 1, leaseToken: null });
      expect(row.lastError).toMatch(/timeout|greeting/i);
    } finally {
      await app.close();
      silent.close();
    }
  }, 40_000);
});
