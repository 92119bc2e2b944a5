// Across two real server processes sharing one PostgreSQL database: LISTEN/NOTIFY carries the event between them.
// Runs only in the PostgreSQL suite (see vitest.config.ts: *.pg.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, type TestUser } from "./harness";
import { type ServerProcess as Proc, startServerProcess, stopServerProcess } from "./server-process";
import { readEvents, waitFor } from "./sse";

const startProcess = (databaseUrl: string) => startServerProcess(databaseUrl);
const stopProcess = (proc: Proc | undefined) => stopServerProcess(proc);

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
