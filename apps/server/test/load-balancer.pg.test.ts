// Two server processes with separate DATA_DIRs on one PostgreSQL database and one S3 bucket, behind HAProxy
// (deploy/haproxy.cfg): evidence uploaded through one is downloaded through the other, a session works on both,
// and a notification created through one reaches an event stream held by the other — directly and through the
// proxy. The keys that default to DATA_DIR are given to both by environment, as README "Operating Tranche" says.
import { createHash, generateKeyPairSync, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeMilestone, makeProject } from "./factories";
import { type LoadBalancer, startHaproxy } from "./haproxy";
import { createTestApp, type TestApp, type TestUser } from "./harness";
import { startS3, type TestS3 } from "./s3";
import { type ServerProcess, startServerProcess, stopServerProcess } from "./server-process";
import { readEvents, waitFor } from "./sse";

const sha = (data: Buffer) => createHash("sha256").update(data).digest("hex");

let t: TestApp;
let s3: TestS3;
let a: ServerProcess;
let b: ServerProcess;
let proxy: LoadBalancer;
let owner: TestUser;
let admin: TestUser;
const dataDirs = [0, 1].map(() => mkdtempSync(path.join(tmpdir(), "tranche-lb-")));

beforeAll(async () => {
  t = await createTestApp();
  s3 = await startS3();
  const shared = {
    ...s3.env,
    TRUST_PROXY: "true",
    AUDIT_SIGNING_KEY: generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    WEBHOOK_SECRETS_KEY: randomBytes(32).toString("base64"),
  };
  const url = t.deps.env.DATABASE_URL as string;
  [a, b] = await Promise.all(dataDirs.map((dir) => startServerProcess(url, { ...shared, DATA_DIR: dir })));
  proxy = await startHaproxy({ a: new URL(a.url).host, b: new URL(b.url).host });
  await proxy.waitForServers(["a", "b"]);
  [owner, admin] = [await t.user("project_owner"), await t.user("admin")];
}, 120_000);
afterAll(async () => {
  await proxy?.close();
  await Promise.all([stopServerProcess(a), stopServerProcess(b)]);
  await s3?.close();
  await t?.close();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

describe("two servers behind HAProxy", () => {
  it("serves a session on both servers, and through the proxy", async () => {
    for (const base of [a.url, b.url, proxy.url, proxy.url]) {
      const res = await fetch(`${base}/api/auth/session`, { headers: { cookie: owner.cookie } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { user: { id: string } }).user.id).toBe(owner.id);
    }
  });

  it("downloads through B the evidence uploaded through A, and through the proxy from either", async () => {
    const project = await makeProject(t, { owner });
    const milestone = await makeMilestone(t, project);
    const content = randomBytes(200_000);
    const form = new FormData();
    form.append("files", new Blob([content]), "site-photo.jpg");
    const uploaded = await fetch(`${a.url}/api/milestones/${milestone.id}/evidence`, {
      method: "POST",
      headers: { cookie: owner.cookie },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const [item] = ((await uploaded.json()) as { items: { id: string; sha256: string }[] }).items;
    expect(item.sha256).toBe(sha(content));
    const served = new Set<string>();
    for (const base of [b.url, proxy.url, proxy.url]) {
      const res = await fetch(`${base}/api/evidence/${item.id}`, { headers: { cookie: owner.cookie } });
      expect(res.status).toBe(200);
      expect(sha(Buffer.from(await res.arrayBuffer()))).toBe(item.sha256);
      served.add(res.headers.get("x-tranche-server") ?? "direct");
    }
    expect(served).toEqual(new Set(["direct", "a", "b"]));
  });

  it("delivers a notification created through one server to a stream held by the other, and through the proxy", async () => {
    const user = await t.user("project_owner");
    const direct = readEvents(await fetch(`${a.url}/api/events`, { headers: { cookie: user.cookie } }));
    const proxied = readEvents(await fetch(`${proxy.url}/api/events`, { headers: { cookie: user.cookie } }));
    await waitFor(() => direct.comments.includes("connected") && proxied.comments.includes("connected"));
    const res = await fetch(`${b.url}/api/users/${user.id}`, {
      method: "PATCH",
      headers: { cookie: admin.cookie, "content-type": "application/json" },
      body: JSON.stringify({ role: "investor" }),
    });
    expect(res.status).toBe(200);
    for (const stream of [direct, proxied]) {
      const [event] = await stream.next(1);
      expect(event.json).toMatchObject({ category: "account", title: "Your role has changed" });
      await stream.close();
    }
  });

  it("tells a client to drop an idle connection before the proxy closes it, so no request meets the close", async () => {
    const config = readFileSync(new URL("../../../deploy/haproxy.cfg", import.meta.url), "utf8");
    const proxyIdleSeconds = Number(/^\s*timeout http-keep-alive (\d+)s$/m.exec(config)?.[1]);
    const res = await fetch(`${proxy.url}/api/health/live`);
    await res.arrayBuffer();
    const told = Number(/timeout=(\d+)/.exec(res.headers.get("keep-alive") ?? "")?.[1]);
    expect(told).toBeLessThan(proxyIdleSeconds);
    // Node's fetch keeps a connection for what it was told: requests sent when the proxy's idle timeout runs out
    // (the server's own "timeout=65" had reached the client, and 9 to 29 of 60 such uploads failed with EPIPE).
    const failures: string[] = [];
    await Promise.all(
      Array.from({ length: 40 }, async (_, k) => {
        await (await fetch(`${proxy.url}/api/health/live`)).arrayBuffer();
        await new Promise((resolve) => setTimeout(resolve, proxyIdleSeconds * 1000 - 10 + k * 0.5));
        const form = new FormData();
        form.append("files", new Blob([new Uint8Array(65_536)]), "photo.jpg");
        try {
          await (await fetch(`${proxy.url}/api/health/live`, { method: "POST", body: form })).arrayBuffer();
        } catch (error) {
          failures.push(String((error as { cause?: { code?: string } }).cause?.code ?? error));
        }
      }),
    );
    expect(failures).toEqual([]);
  }, 30_000);
});
