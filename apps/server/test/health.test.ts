import { describe, expect, it } from "vitest";
import { envSchema } from "../src/env";
import { createTestApp } from "./harness";
import { readEvents, waitFor } from "./sse";

describe("GET /api/health", () => {
  it("answers 200 while the database is reachable and 503 when it is not", async () => {
    const t = await createTestApp();
    const up = await t.request("GET", "/api/health");
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ status: "ok", database: { reachable: true }, realtime: "listening" });
    await t.deps.database.close();
    const down = await t.request("GET", "/api/health");
    expect(down.status).toBe(503);
    expect(down.body.database.reachable).toBe(false);
    await t.close().catch(() => {});
  });
});

describe("public address", () => {
  it("defaults to localhost on the port the server listens on, so certificate and email links reach it", () => {
    expect(envSchema.parse({ NODE_ENV: "test" }).PUBLIC_URL).toBe("http://localhost:3000");
    expect(envSchema.parse({ NODE_ENV: "test", PORT: "4200" }).PUBLIC_URL).toBe("http://localhost:4200");
    expect(envSchema.parse({ PORT: "4200", PUBLIC_URL: "https://tranche.example.com" }).PUBLIC_URL).toBe(
      "https://tranche.example.com",
    );
  });
});

describe("realtime settings", () => {
  it("parses the reconnect delays and heartbeat, and names the variable when one is malformed", () => {
    const base = { NODE_ENV: "test" };
    expect(envSchema.parse(base)).toMatchObject({
      REALTIME_RECONNECT_DELAYS_MS: [1000, 2000, 5000, 10000],
      SSE_HEARTBEAT_MS: 30_000,
    });
    expect(envSchema.parse({ ...base, REALTIME_RECONNECT_DELAYS_MS: "50,100", SSE_HEARTBEAT_MS: "250" })).toMatchObject(
      {
        REALTIME_RECONNECT_DELAYS_MS: [50, 100],
        SSE_HEARTBEAT_MS: 250,
      },
    );
    const bad = envSchema.safeParse({ ...base, REALTIME_RECONNECT_DELAYS_MS: "1s,2s" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].path).toEqual(["REALTIME_RECONNECT_DELAYS_MS"]);
  });

  it("sends heartbeats on open streams at the configured interval", async () => {
    const t = await createTestApp({ SSE_HEARTBEAT_MS: 100 });
    const user = await t.user("investor");
    const stream = readEvents(await t.app.request("/api/events", { headers: { cookie: user.cookie } }));
    await waitFor(() => stream.comments.filter((c) => c === "heartbeat").length >= 3, 2000);
    await stream.close();
    await t.close();
  });
});
