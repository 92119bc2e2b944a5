// Across two real server processes sharing one PostgreSQL database: LISTEN/NOTIFY carries the event between them.
// Runs only in the PostgreSQL suite (see vitest.config.ts: *.pg.test.ts).
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, type TestUser } from "./harness";
import { readEvents, waitFor } from "./sse";

const root = fileURLToPath(new URL("../../..", import.meta.url));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

interface Proc {
  url: string;
  child: ChildProcess;
  logs: string[];
}

async function startProcess(databaseUrl: string): Promise<Proc> {
  const port = await freePort();
  const logs: string[] = [];
  const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: databaseUrl,
      DEMO_DATA: "false",
      LOG_LEVEL: "warn",
      NODE_ENV: "production",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => logs.push(String(chunk)));
  child.stderr?.on("data", (chunk) => logs.push(String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${logs.join("")}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`server did not start:\n${logs.join("")}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, child, logs };
}

async function stopProcess(proc: Proc | undefined): Promise<number> {
  if (!proc || proc.child.exitCode !== null) return 0;
  const started = Date.now();
  const exited = new Promise((resolve) => proc.child.once("exit", resolve));
  proc.child.kill("SIGTERM");
  await exited;
  return Date.now() - started;
}

describe("event stream across two server processes on one PostgreSQL", () => {
  let t: TestApp;
  let a: Proc;
  let b: Proc;
  let admin: TestUser;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    const url = t.deps.env.DATABASE_URL as string;
    [a, b] = await Promise.all([startProcess(url), startProcess(url)]);
    [admin, user] = [await t.user("admin"), await t.user("project_owner")];
  }, 120_000);
  afterAll(async () => {
    await Promise.all([stopProcess(a), stopProcess(b)]);
    await t?.close();
  });

  const connect = (proc: Proc, lastEventId?: number) =>
    fetch(`${proc.url}/api/events`, {
      headers: { cookie: user.cookie, ...(lastEventId === undefined ? {} : { "Last-Event-ID": String(lastEventId) }) },
    });
  const changeRole = async (role: string) => {
    const res = await fetch(`${b.url}/api/users/${user.id}`, {
      method: "PATCH",
      headers: { cookie: admin.cookie, "content-type": "application/json" },
      body: JSON.stringify({ role }),
    });
    expect(res.status).toBe(200);
  };

  it("delivers a notification created through process B to a stream open on process A", async () => {
    const res = await connect(a);
    expect(res.status).toBe(200);
    const stream = readEvents(res);
    await waitFor(() => stream.comments.includes("connected"));
    await changeRole("investor");
    const [event] = await stream.next(1);
    expect(event.json).toMatchObject({ category: "account", title: "Your role has changed" });
    expect(event.json.message).toContain("to Investor");
    await stream.close();
  });

  it("gives a reconnecting client (Last-Event-ID) every notification it missed", async () => {
    const first = readEvents(await connect(a));
    await waitFor(() => first.comments.includes("connected"));
    await changeRole("verifier");
    const [seen] = await first.next(1);
    await first.close();

    await changeRole("admin");
    await changeRole("investor");
    await changeRole("project_owner");

    const again = readEvents(await connect(a, Number(seen.id)));
    const missed = await again.next(3);
    expect(missed.map((e) => e.json.message)).toEqual([
      "An administrator changed your role from Verifier to Admin.",
      "An administrator changed your role from Admin to Investor.",
      "An administrator changed your role from Investor to Project Owner.",
    ]);
    expect(missed.map((e) => Number(e.id))).toEqual([...missed.map((e) => Number(e.id))].sort((x, y) => x - y));
    await again.close();
  });

  it("ends open streams at once on SIGTERM, then exits", async () => {
    const stream = readEvents(await connect(a));
    await waitFor(() => stream.comments.includes("connected"));
    const started = Date.now();
    const exited = stopProcess(a);
    expect(await stream.untilEnded(2_000)).toBe(true);
    expect(Date.now() - started).toBeLessThan(2_000);
    // Under SHUTDOWN_TIMEOUT_MS (10 s): the open stream did not hold the server open until the deadline.
    expect(await exited).toBeLessThan(8_000);
  });
});
