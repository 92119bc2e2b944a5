// Webhook delivery across real server processes sharing one PostgreSQL database: every event reaches the
// receiver once, never twice at the same time, and a delivery cut off by a killed process is sent after it.
// Runs only in the PostgreSQL suite (see vitest.config.ts: *.pg.test.ts).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookDeliveries } from "../src/db/schema";
import { createTestApp, type TestApp, type TestUser } from "./harness";
import { type ServerProcess as Proc, startServerProcess, stopServerProcess } from "./server-process";
import { waitFor } from "./sse";
import { type Receiver, startReceiver } from "./webhook-receiver";

const LEASE_MS = 15_000;

let t: TestApp;
let admin: TestUser;
let receiver: Receiver;
let dataDir: string;
const secretsKey = randomBytes(32).toString("base64");
const procs: Proc[] = [];

async function startProcess(): Promise<Proc> {
  const proc = await startServerProcess(t.deps.env.DATABASE_URL as string, {
    DATA_DIR: dataDir,
    WEBHOOK_ALLOW_PRIVATE: "true",
    WEBHOOK_SECRETS_KEY: secretsKey,
    OUTBOX_LEASE_MS: String(LEASE_MS),
  });
  procs.push(proc);
  return proc;
}

const stop = (proc: Proc, signal: NodeJS.Signals = "SIGTERM") => stopServerProcess(proc, signal);

async function createProject(proc: Proc, name: string) {
  const res = await fetch(`${proc.url}/api/projects`, {
    method: "POST",
    headers: { cookie: admin.cookie, "content-type": "application/json" },
    body: JSON.stringify({
      name,
      description: "Created to send project.created.",
      location: "Test",
      totalCapital: 1000,
    }),
  });
  expect(res.status).toBe(201);
}

/** webhook-id → how many requests carried it. */
function tally() {
  const counts = new Map<string, number>();
  for (const r of receiver.received)
    counts.set(r.headers["webhook-id"], (counts.get(r.headers["webhook-id"]) ?? 0) + 1);
  return counts;
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "tranche-webhook-processes-"));
  t = await createTestApp();
  admin = await t.user("admin");
  receiver = await startReceiver();
}, 120_000);
afterAll(async () => {
  await Promise.all(procs.map((p) => stop(p, "SIGKILL")));
  await receiver?.close();
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("webhook delivery across server processes on one PostgreSQL", () => {
  it("delivers every event from two processes once each, never the same one twice at a time", async () => {
    const [a, b] = await Promise.all([startProcess(), startProcess()]);
    const created = await fetch(`${a.url}/api/webhook-endpoints`, {
      method: "POST",
      headers: { cookie: admin.cookie, "content-type": "application/json" },
      body: JSON.stringify({ url: `${receiver.url}/hook`, events: ["project.created"] }),
    });
    expect(created.status).toBe(201);

    // Each answer takes a moment, so both processes' workers are busy at once.
    let mostInFlight = new Map<string, number>();
    const open = new Map<string, number>();
    receiver.answer = async (req, res: ServerResponse) => {
      const id = req.headers["webhook-id"];
      open.set(id, (open.get(id) ?? 0) + 1);
      mostInFlight = new Map([...mostInFlight, [id, Math.max(mostInFlight.get(id) ?? 0, open.get(id) ?? 0)]]);
      await new Promise((r) => setTimeout(r, 50));
      open.set(id, (open.get(id) ?? 1) - 1);
      res.end("ok");
    };
    const EVENTS = 30;
    await Promise.all(Array.from({ length: EVENTS }, (_, i) => createProject(i % 2 ? a : b, `Project ${i}`)));
    await waitFor(() => tally().size === EVENTS, 60_000);
    await new Promise((r) => setTimeout(r, 1500)); // anything sent twice would arrive by now
    expect([...tally().values()].every((n) => n === 1)).toBe(true);
    expect([...mostInFlight.values()].every((n) => n === 1)).toBe(true);
    expect(receiver.received).toHaveLength(EVENTS);
    await Promise.all([stop(a), stop(b)]);
  }, 180_000);

  it("sends a delivery again after the process sending it was killed, with the same webhook-id", async () => {
    receiver.received.length = 0;
    const a = await startProcess();
    let held: ServerResponse | undefined;
    receiver.answer = (_req, res) => {
      if (!held) {
        held = res; // never answered: the process is killed while it waits
        return;
      }
      res.end("ok");
    };
    await createProject(a, "Interrupted");
    await waitFor(() => receiver.received.length === 1, 30_000);
    const id = receiver.received[0].headers["webhook-id"];
    await stop(a, "SIGKILL");
    held?.destroy();

    const restarted = await startProcess();
    const started = Date.now();
    await waitFor(() => receiver.received.length === 2, LEASE_MS + 30_000);
    expect(receiver.received[1].headers["webhook-id"]).toBe(id);
    expect(receiver.received[1].body).toBe(receiver.received[0].body);
    const status = async () =>
      (await t.deps.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))[0]?.status;
    for (let tries = 0; (await status()) !== "delivered" && tries < 100; tries++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await status()).toBe("delivered");
    expect(Date.now() - started).toBeLessThan(LEASE_MS + 30_000);
    await stop(restarted);
  }, 180_000);
});
