// Server-Sent Events: in-process on whichever database the suite runs on, and, on PostgreSQL, across two
// real server processes sharing one database (LISTEN/NOTIFY is what carries an event between them).
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notify } from "../src/services/notifications/notify";
import { daysFromNow, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser, usePostgres } from "./harness";

interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

/** Reads an event stream, collecting events; `next(n)` waits until n events have arrived. */
function readEvents(res: Response) {
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let ended = false;
  const waiters: (() => void)[] = [];
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut = buffer.indexOf("\n\n");
        while (cut >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event: SseEvent = { data: "" };
          let isEvent = false;
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) comments.push(line.slice(1).trim());
            else if (line.startsWith("id: ")) event.id = line.slice(4);
            else if (line.startsWith("event: ")) event.event = line.slice(7);
            else if (line.startsWith("data: ")) {
              event.data += line.slice(6);
              isEvent = true;
            }
          }
          if (isEvent) events.push(event);
          for (const w of waiters.splice(0)) w();
          cut = buffer.indexOf("\n\n");
        }
      }
    } catch {
      // cancelled by the test
    } finally {
      ended = true;
      for (const w of waiters.splice(0)) w();
    }
  })();
  return {
    events,
    comments,
    get ended() {
      return ended;
    },
    async next(count: number, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (events.length < count) {
        if (ended) throw new Error(`stream ended after ${events.length} of ${count} events`);
        if (Date.now() > deadline) throw new Error(`timed out with ${events.length} of ${count} events`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      return events.slice(0, count).map((e) => ({ ...e, json: JSON.parse(e.data) }));
    },
    async untilEnded(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!ended && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      return ended;
    },
    async close() {
      await reader.cancel().catch(() => {});
      await pump;
    },
  };
}

const waitFor = async (check: () => boolean, timeoutMs = 5_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe("event stream in-process", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const open = async (user: TestUser | null, headers: Record<string, string> = {}, query = "") => {
    const res = await t.app.request(`/api/events${query}`, {
      headers: { ...(user ? { cookie: user.cookie } : {}), ...headers },
    });
    return res;
  };

  it("refuses a signed-out caller and a malformed Last-Event-ID", async () => {
    expect((await open(null)).status).toBe(401);
    const user = await t.user("investor");
    const bad = await open(user, { "last-event-id": "abc" });
    expect(bad.status).toBe(400);
  });

  it("pushes a notification created through the API to its recipient's stream, with its seq as id", async () => {
    const [owner, investor] = [await t.user("project_owner"), await t.user("investor")];
    const project = await makeProject(t, { owner, investors: [investor] });
    const res = await open(investor);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);
    const stream = readEvents(res);
    await waitFor(() => stream.comments.includes("connected"));

    const created = await t.request("POST", `/api/projects/${project.id}/milestones`, {
      as: owner,
      body: { title: "Roof", description: "Roof and solar panels.", dueDate: daysFromNow(20), capitalAmount: 1000 },
    });
    expect(created.status).toBe(201);
    const [event] = await stream.next(1);
    expect(event.event).toBe("notification");
    expect(event.json).toMatchObject({
      category: "milestone",
      read: false,
      subject: { projectId: project.id, milestoneId: created.body.id },
    });
    expect(event.id).toBe(String(event.json.seq));
    await stream.close();
  });

  it("sends only the user's own events, and frees a stream when the client goes", async () => {
    const [ana, ben] = [await t.user("investor"), await t.user("investor")];
    const before = t.deps.realtime.streamCount();
    const stream = readEvents(await open(ana));
    await waitFor(() => stream.comments.includes("connected"));
    expect(t.deps.realtime.streamCount()).toBe(before + 1);
    await t.deps.db.transaction((tx) => notify(tx, [ben.id], { title: "Ben's", message: "b", category: "account" }));
    await t.deps.db.transaction((tx) => notify(tx, [ana.id], { title: "Ana's", message: "a", category: "account" }));
    const [event] = await stream.next(1);
    expect(event.json.title).toBe("Ana's");
    expect(stream.events.length).toBe(1);
    await stream.close();
    await waitFor(() => t.deps.realtime.streamCount() === before);
  });

  it("replays what was missed after Last-Event-ID (header or query), in order", async () => {
    const user = await t.user("verifier");
    for (const title of ["one", "two", "three"]) {
      await t.deps.db.transaction((tx) => notify(tx, [user.id], { title, message: title, category: "verification" }));
    }
    const all = await t.request("GET", "/api/notifications", { as: user });
    const oldest = all.body.items[2].seq as number;

    const byHeader = readEvents(await open(user, { "last-event-id": String(oldest) }));
    expect((await byHeader.next(2)).map((e) => e.json.title)).toEqual(["two", "three"]);
    await byHeader.close();
    const byQuery = readEvents(await open(user, {}, "?lastEventId=0"));
    expect((await byQuery.next(3)).map((e) => e.json.title)).toEqual(["one", "two", "three"]);
    await byQuery.close();
  });

  it("ends open streams when realtime closes (graceful shutdown)", async () => {
    const local = await createTestApp();
    try {
      const user = await local.user("admin");
      const res = await local.app.request("/api/events", { headers: { cookie: user.cookie } });
      const stream = readEvents(res);
      await waitFor(() => stream.comments.includes("connected"));
      await local.deps.realtime.close();
      expect(await stream.untilEnded()).toBe(true);
      expect(local.deps.realtime.streamCount()).toBe(0);
    } finally {
      await local.close();
    }
  });
});

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

describe.runIf(usePostgres)("event stream across two server processes on one PostgreSQL", () => {
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
