// Server-Sent Events in-process, on whichever database the suite runs on. The same stream across two real
// server processes is in realtime-processes.pg.test.ts (PostgreSQL only).
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession } from "../src/auth/sessions";
import { notify } from "../src/services/notifications/notify";
import { daysFromNow, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";
import { readEvents, waitFor } from "./sse";

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

  it("sends what the NOTIFY carried as the stored notification reads, and reads one too large to travel", async () => {
    const user = await t.user("investor");
    const stream = readEvents(await open(user));
    await waitFor(() => stream.comments.includes("connected"));
    // Over NOTIFY's 8,000 bytes: only its seq travels, and the stream reads it back.
    const long = "A long message. ".repeat(600);
    for (const message of ["Short enough to travel.", long]) {
      await t.deps.db.transaction((tx) =>
        notify(tx, [user.id], {
          title: "Carried",
          message,
          category: "milestone",
          link: "/projects",
          subject: { projectId: "00000000-0000-4000-8000-000000000001" },
        }),
      );
    }
    const [carried, read] = await stream.next(2);
    const stored = await t.request("GET", "/api/notifications?limit=2", { as: user });
    const [newest, older] = stored.body.items;
    // The same fields, values and order as the list, with the subject on top.
    expect(carried.json).toEqual({ ...older, subject: { projectId: "00000000-0000-4000-8000-000000000001" } });
    expect(read.json).toEqual({ ...newest, subject: { projectId: "00000000-0000-4000-8000-000000000001" } });
    expect(read.json.message).toBe(long);
    expect(Number(read.id)).toBeGreaterThan(Number(carried.id));
    await stream.close();
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

  it("ends a stream when its session ends (signed out by another session), and only that one", async () => {
    const user = await t.user("project_owner");
    const { token } = await createSession(t.deps.db, user.id, { secondFactorPassed: true });
    const other = { ...user, cookie: `${user.cookie.split("=")[0]}=${token}` };
    const cut = readEvents(await open(user));
    const kept = readEvents(await open(other));
    await waitFor(() => cut.comments.includes("connected") && kept.comments.includes("connected"));
    const revoked = await t.request("POST", "/api/auth/sessions/sign-out-others", { as: other });
    expect(revoked.status).toBe(200);
    expect(await cut.untilEnded()).toBe(true);
    // The session that signed the other out still hears what follows; the ended one heard nothing.
    await t.deps.db.transaction((tx) => notify(tx, [user.id], { title: "After", message: "m", category: "account" }));
    const [event] = await kept.next(1);
    expect(event.json.title).toBe("After");
    expect(cut.events).toEqual([]);
    await kept.close();
  });

  it("ends a stream when its session reaches its limit unused, and keeps one whose session was used meanwhile", async () => {
    const local = await createTestApp({ SESSION_IDLE_MINUTES: 1 });
    try {
      const [idle, used] = [await local.user("investor"), await local.user("investor")];
      // Both sessions were last used 58 seconds ago: unused, they end two seconds from now.
      await local.deps.db.execute(
        sql`update sessions set last_seen_at = now() - interval '58 seconds' where user_id in (${idle.id}, ${used.id})`,
      );
      const open = (user: TestUser) => local.app.request("/api/events", { headers: { cookie: user.cookie } });
      const [ending, kept] = [readEvents(await open(idle)), readEvents(await open(used))];
      await waitFor(() => ending.comments.includes("connected") && kept.comments.includes("connected"));
      // The second is used meanwhile (any request touches it): its end moves a minute on.
      await local.deps.db.execute(sql`update sessions set last_seen_at = now() where user_id = ${used.id}`);
      expect(await ending.untilEnded(8_000)).toBe(true);
      expect(kept.ended).toBe(false);
      await local.deps.db.transaction((tx) =>
        notify(tx, [idle.id, used.id], { title: "Later", message: "m", category: "account" }),
      );
      expect((await kept.next(1))[0].json.title).toBe("Later");
      expect(ending.events).toEqual([]);
      // The ended session is refused, as any use of it would find.
      expect((await local.request("GET", "/api/me", { as: idle })).status).toBe(401);
      await kept.close();
    } finally {
      await local.close();
    }
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
