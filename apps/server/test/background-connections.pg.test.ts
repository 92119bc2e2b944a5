// The outbox worker has connections of its own on PostgreSQL (db/client.ts, ADR 026): with every connection of the
// requests' pool held by a transaction, a message still runs at once instead of waiting behind them.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enqueue } from "../src/services/outbox/outbox";
import { createOutboxWorker } from "../src/services/outbox/worker";
import { createTestApp, type TestApp } from "./harness";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("the outbox worker's connections", () => {
  it("runs a message while every request connection is held by a transaction", async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const held = Array.from({ length: 10 }, () =>
      t.deps.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await gate;
      }),
    );
    try {
      await expect.poll(() => t.deps.database.poolStats().inUse).toBe(10);
      const ran: unknown[] = [];
      const background = { ...t.deps, db: t.deps.database.backgroundDb };
      const worker = createOutboxWorker(background, {
        probe: { retryDelaysMs: [1000], handle: async (message) => void ran.push(message.payload) },
      });
      await enqueue(background.db, "probe", { step: 1 });
      const started = Date.now();
      expect(await worker.drain()).toBe(1);
      expect(ran).toEqual([{ step: 1 }]);
      // Well inside the requests' pool's 5 s wait for a connection.
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      open();
      await Promise.all(held);
    }
  });
});
