// The custodian simulator as people run it (`npm run cli -- custodian-sim`), receiving real deliveries.
import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disbursements, webhookAttempts, webhookDeliveries } from "../src/db/schema";
import { publishEvent } from "../src/services/outbox/outbox";
import { createOutboxWorker } from "../src/services/outbox/worker";
import { signedHeaders, webhookTopics } from "../src/services/webhooks/deliveries";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp } from "./harness";

const root = fileURLToPath(new URL("../../..", import.meta.url));

let t: TestApp;
let sim: ChildProcess;
let simUrl = "";
const output: string[] = [];
// Stands in for Tranche's settle route (POST /api/releases/:id/settle), recording what the simulator sends.
let api: http.Server;
const settleCalls: { path: string; authorization: string; body: unknown }[] = [];
let secret = "";

async function waitFor<T>(check: () => T | undefined, what: string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; output:\n${output.join("")}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts `npm run cli -- custodian-sim` as people run it; resolves with its URL once it listens. */
async function spawnSim(args: { secret: string; token: string; api: string }, lines: string[]) {
  const child = spawn(
    process.execPath,
    [
      ...["--import", "tsx", "apps/server/src/cli.ts", "custodian-sim", "--port", "0", "--auto-settle"],
      ...["--secret", args.secret, "--token", args.token, "--api", args.api],
    ],
    { cwd: root, env: { ...process.env, LOG_LEVEL: "silent" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  child.stdout?.on("data", (c) => lines.push(String(c)));
  child.stderr?.on("data", (c) => lines.push(String(c)));
  const url = await waitFor(() => lines.join("").match(/listening on (http:\/\/\S+)/)?.[1], "the simulator", 30_000);
  return { child, url };
}

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: true });
  api = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      settleCalls.push({
        path: req.url ?? "",
        authorization: req.headers.authorization ?? "",
        body: JSON.parse(Buffer.concat(chunks).toString() || "null"),
      });
      res.setHeader("content-type", "application/json");
      res.end('{"status":"settled"}');
    });
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  const apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;

  // The secret comes from registering the endpoint, which needs the simulator's URL: register with a
  // placeholder, start the simulator with the secret, then point the endpoint at it.
  const admin = await t.user("admin");
  const created = await t.request("POST", "/api/webhook-endpoints", {
    as: admin,
    body: { url: "http://127.0.0.1:9/placeholder", events: ["project.created", "release.instructed"] },
  });
  secret = created.body.secret;
  ({ child: sim, url: simUrl } = await spawnSim({ secret, token: "trk_test_token", api: apiUrl }, output));
  const patched = await t.request("PATCH", `/api/webhook-endpoints/${created.body.id}`, {
    as: admin,
    body: { url: `${simUrl}/webhooks` },
  });
  expect(patched.status).toBe(200);
}, 60_000);

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

afterAll(async () => {
  if (sim) await stop(sim);
  api?.closeAllConnections();
  await new Promise((resolve) => api?.close(resolve));
  await t.close();
});

const drain = () => createOutboxWorker(t.deps, webhookTopics(t.deps)).drain();

describe("custodian-sim", () => {
  it("verifies and prints each event, and answers 401 to a forged one", async () => {
    await t.deps.db.transaction((tx) =>
      publishEvent(tx, "project.created", { project: { id: "p1", name: "Harbour Wind" }, owner: { name: "Ada" } }),
    );
    await drain();
    await waitFor(() => output.join("").includes("✓ project.created"), "the printed event");
    expect(output.join("")).toContain('project "Harbour Wind"');
    const [attempt] = await t.deps.db.select().from(webhookAttempts);
    expect(attempt).toMatchObject({ statusCode: 200, response: '{"ok":true}' });

    const body = JSON.stringify({
      id: "e1",
      type: "release.instructed",
      createdAt: new Date().toISOString(),
      data: {},
    });
    const forged = await fetch(`${simUrl}/webhooks`, {
      method: "POST",
      headers: signedHeaders(["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"], "msg_forged", body),
      body,
    });
    expect(forged.status).toBe(401);
    await waitFor(() => output.join("").includes("✗ rejected msg_forged"), "the rejection");
  });

  it("settles each instructed release through the API with its bearer token, once per webhook-id", async () => {
    const releaseId = "0b9c2f3e-5d1a-4c7e-9f00-7a1b2c3d4e5f";
    await t.deps.db.transaction((tx) =>
      publishEvent(tx, "release.instructed", {
        releaseId,
        instructionId: "6f1e0d2c-1111-4222-8333-944455556666",
        status: "instructed",
        amount: "1250000.00",
        currency: "USD",
        milestone: { id: "m1", name: "Foundations" },
        project: { id: "p1", name: "Harbour Wind" },
      }),
    );
    await drain();
    await waitFor(() => settleCalls.length === 1 || undefined, "the settle call");
    expect(settleCalls[0]).toEqual({
      path: `/api/releases/${releaseId}/settle`,
      authorization: "Bearer trk_test_token",
      body: { instructionId: "6f1e0d2c-1111-4222-8333-944455556666", reference: "SIM-6F1E0D2C1111" },
    });
    await waitFor(() => output.join("").includes(`settled release ${releaseId}`), "the settle line");
    expect(output.join("")).toContain("1250000.00 USD");

    // A replay carries the same webhook-id: the simulator does not settle twice.
    const [delivery] = await t.deps.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.eventType, "release.instructed"));
    const admin = await t.user("admin");
    const replay = await t.request(
      "POST",
      `/api/webhook-endpoints/${delivery.endpointId}/deliveries/${delivery.id}/replay`,
      { as: admin },
    );
    expect(replay.status).toBe(202);
    await drain();
    await waitFor(() => output.join("").includes("again (already handled)"), "the duplicate line");
    expect(settleCalls).toHaveLength(1);
  });

  it("settles a real release end to end: approval, signed webhook, simulator, bearer-token settle", async () => {
    const admin = await t.user("admin");
    // Only the endpoint this test registers receives the release.
    const others = await t.request("GET", "/api/webhook-endpoints", { as: admin });
    for (const e of others.body.items) {
      await t.request("PATCH", `/api/webhook-endpoints/${e.id}`, { as: admin, body: { enabled: false } });
    }
    const server = serve({ fetch: t.app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise((resolve) => server.once("listening", resolve));
    const tranche = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const tokenRes = await t.request("POST", "/api/api-tokens", {
      as: admin,
      body: { name: "Simulator", scopes: ["releases:read", "releases:write"] },
    });
    expect(tokenRes.status).toBe(201);
    const endpoint = await t.request("POST", "/api/webhook-endpoints", {
      as: admin,
      body: { url: "http://127.0.0.1:9/placeholder", events: ["release.instructed"] },
    });
    const lines: string[] = [];
    const { child: second, url } = await spawnSim(
      { secret: endpoint.body.secret, token: tokenRes.body.token, api: tranche },
      lines,
    );
    try {
      await t.request("PATCH", `/api/webhook-endpoints/${endpoint.body.id}`, { as: admin, body: { url } });

      const owner = await t.user("project_owner");
      const verifier = await t.user("verifier");
      const project = await makeProject(t, { owner, verifiers: [verifier], name: "Tidal Array" });
      const milestone = await makeMilestone(t, project, {
        status: "in_verification",
        verifier,
        capitalAmount: 400_000,
      });
      const approved = await t.request("POST", `/api/milestones/${milestone.id}/approve`, {
        as: verifier,
        body: { comments: "Evidence checked." },
      });
      expect(approved.status).toBe(200);
      await drain();

      await waitFor(() => lines.join("").includes("→ settled release"), "the simulator to settle", 20_000);
      const [release] = await t.deps.db.select().from(disbursements).where(eq(disbursements.milestoneId, milestone.id));
      expect(release.status).toBe("settled");
      expect(lines.join("")).toContain('project "Tidal Array"');
      expect(lines.join("")).toContain("400000.00 USD");
    } finally {
      await stop(second);
      server.close();
    }
  }, 60_000);
});
