import { describe, expect, it } from "vitest";
import { createTestApp } from "./harness";

describe("GET /api/health", () => {
  it("answers 200 while the database is reachable and 503 when it is not", async () => {
    const t = await createTestApp();
    expect((await t.request("GET", "/api/health")).status).toBe(200);
    await t.deps.database.close();
    const down = await t.request("GET", "/api/health");
    expect(down.status).toBe(503);
    expect(down.body.database.reachable).toBe(false);
    await t.close().catch(() => {});
  });
});
