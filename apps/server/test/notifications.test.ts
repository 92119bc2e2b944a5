import { readFileSync } from "node:fs";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailPreferences, notifications, outbox } from "../src/db/schema";
import { notify } from "../src/services/notifications/notify";
import { enqueue } from "../src/services/outbox/outbox";
import { outboxTopics } from "../src/services/outbox/topics";
import { createOutboxWorker } from "../src/services/outbox/worker";
import { notifyDueSoonMilestones } from "../src/services/verifiers/turnaround";
import { daysFromNow, makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Notifications straight into the database, as another issue's service would create them. */
async function seedNotifications(user: TestUser, count: number, category = "milestone") {
  await t.deps.db.transaction(async (tx) => {
    for (let i = 1; i <= count; i++) {
      await notify(tx, [user.id], { title: `Note ${i}`, message: `Message ${i}`, category: category as "milestone" });
    }
  });
}

async function inbox(user: TestUser) {
  const res = await t.request("GET", "/api/notifications?limit=100", { as: user });
  expect(res.status).toBe(200);
  return res.body.items as {
    id: string;
    title: string;
    message: string;
    category: string;
    read: boolean;
    link: string | null;
  }[];
}

describe("reading notifications", () => {
  it("lists only the caller's own, newest first, in pages", async () => {
    const [ana, ben] = [await t.user("investor"), await t.user("investor")];
    await seedNotifications(ana, 5);
    await seedNotifications(ben, 2);

    const first = await t.request("GET", "/api/notifications?limit=2", { as: ana });
    expect(first.status).toBe(200);
    expect(first.body.items.map((n: { title: string }) => n.title)).toEqual(["Note 5", "Note 4"]);
    expect(first.body.items[0]).toMatchObject({ category: "milestone", read: false, link: null });
    expect(typeof first.body.items[0].createdAt).toBe("string");
    const second = await t.request("GET", `/api/notifications?limit=2&cursor=${first.body.nextCursor}`, { as: ana });
    expect(second.body.items.map((n: { title: string }) => n.title)).toEqual(["Note 3", "Note 2"]);
    const third = await t.request("GET", `/api/notifications?limit=2&cursor=${second.body.nextCursor}`, { as: ana });
    expect(third.body.items.map((n: { title: string }) => n.title)).toEqual(["Note 1"]);
    expect(third.body.nextCursor).toBeNull();

    expect((await inbox(ben)).map((n) => n.title)).toEqual(["Note 2", "Note 1"]);
  });

  it("filters by unread and by category on the server, pages included", async () => {
    const user = await t.user("investor");
    await seedNotifications(user, 3, "release");
    await seedNotifications(user, 2, "account");
    const [newestRelease] = (await inbox(user)).filter((n) => n.category === "release");
    expect((await t.request("POST", `/api/notifications/${newestRelease.id}/read`, { as: user })).status).toBe(200);
    const titles = async (query: string) => {
      const res = await t.request("GET", `/api/notifications?${query}`, { as: user });
      expect(res.status).toBe(200);
      return { titles: res.body.items.map((n: { title: string }) => n.title), nextCursor: res.body.nextCursor };
    };
    expect((await titles("category=release")).titles).toEqual(["Note 3", "Note 2", "Note 1"]);
    expect((await titles("category=release&unread=true")).titles).toEqual(["Note 2", "Note 1"]);
    const first = await titles("unread=true&limit=3");
    expect(first.titles).toEqual(["Note 2", "Note 1", "Note 2"]);
    expect((await titles(`unread=true&limit=3&cursor=${first.nextCursor}`)).titles).toEqual(["Note 1"]);
    const bad = await t.request("GET", "/api/notifications?category=gossip&unread=maybe", { as: user });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.category).toMatch(/^Category must be one of/);
    expect(bad.body.error.details.unread).toBe("Unread must be true or false.");
  });

  it("refuses a bad page query with 400 and the field, and a signed-out caller with 401", async () => {
    const user = await t.user("investor");
    const bad = await t.request("GET", "/api/notifications?limit=0", { as: user });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.limit).toBe("Limit must be between 1 and 100.");
    const cursor = await t.request("GET", "/api/notifications?cursor=abc", { as: user });
    expect(cursor.status).toBe(400);
    expect(cursor.body.error.details.cursor).toBeDefined();
    expect((await t.request("GET", "/api/notifications")).status).toBe(401);
    expect((await t.request("GET", "/api/notifications/unread-count")).status).toBe(401);
    expect((await t.request("POST", "/api/notifications/read-all")).status).toBe(401);
  });

  it("marks one read and all read, and counts what is unread", async () => {
    const user = await t.user("project_owner");
    await seedNotifications(user, 3);
    expect((await t.request("GET", "/api/notifications/unread-count", { as: user })).body).toEqual({ count: 3 });

    const [newest] = await inbox(user);
    const one = await t.request("POST", `/api/notifications/${newest.id}/read`, { as: user });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: newest.id, read: true });
    expect((await t.request("GET", "/api/notifications/unread-count", { as: user })).body).toEqual({ count: 2 });

    const all = await t.request("POST", "/api/notifications/read-all", { as: user });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ updated: 2 });
    expect((await t.request("GET", "/api/notifications/unread-count", { as: user })).body).toEqual({ count: 0 });
    expect((await inbox(user)).every((n) => n.read)).toBe(true);
  });

  it("never lets one user read or mark another's notification", async () => {
    const [owner, stranger] = [await t.user("project_owner"), await t.user("admin")];
    await seedNotifications(owner, 2);
    const [theirs] = await inbox(owner);

    const mark = await t.request("POST", `/api/notifications/${theirs.id}/read`, { as: stranger });
    expect(mark.status).toBe(404);
    expect(mark.body.error.code).toBe("not_found");
    await t.request("POST", "/api/notifications/read-all", { as: stranger });
    expect((await inbox(stranger)).length).toBe(0);
    expect((await inbox(owner)).every((n) => !n.read)).toBe(true);

    expect((await t.request("POST", "/api/notifications/not-a-uuid/read", { as: owner })).status).toBe(404);
  });
});

describe("who is told about what", () => {
  it("tells the investors and verifiers (not the owner who acted) about a new milestone", async () => {
    const [owner, investor, verifier, outsider] = [
      await t.user("project_owner"),
      await t.user("investor"),
      await t.user("verifier"),
      await t.user("investor"),
    ];
    const project = await makeProject(t, { owner, investors: [investor], verifiers: [verifier], name: "Wind Park" });
    const res = await t.request("POST", `/api/projects/${project.id}/milestones`, {
      as: owner,
      body: {
        title: "Turbine foundations",
        description: "Foundations for all twelve turbines.",
        dueDate: daysFromNow(40),
        capitalAmount: 50_000,
      },
    });
    expect(res.status).toBe(201);
    for (const user of [investor, verifier]) {
      const [note] = await inbox(user);
      expect(note).toMatchObject({ category: "milestone", link: `/milestones/${res.body.id}` });
      expect(note.message).toContain("Turbine foundations");
    }
    expect(await inbox(owner)).toEqual([]);
    expect(await inbox(outsider)).toEqual([]);
  });

  it("tells a user they were assigned to a project (category account)", async () => {
    const [admin, owner, verifier] = [await t.user("admin"), await t.user("project_owner"), await t.user("verifier")];
    const project = await makeProject(t, { owner, name: "Clinic Build" });
    const res = await t.request("POST", `/api/projects/${project.id}/members`, {
      as: admin,
      body: { userId: verifier.id, role: "verifier" },
    });
    expect([200, 201]).toContain(res.status);
    const [note] = await inbox(verifier);
    expect(note).toMatchObject({ category: "account", link: `/projects/${project.id}` });
    expect(await inbox(admin)).toEqual([]);
  });

  it("tells the user whose role an admin changed (category account), and not the admin", async () => {
    const [admin, user] = [await t.user("admin"), await t.user("project_owner")];
    const res = await t.request("PATCH", `/api/users/${user.id}`, { as: admin, body: { role: "verifier" } });
    expect(res.status).toBe(200);
    const [note] = await inbox(user);
    expect(note).toMatchObject({ category: "account", title: "Your role has changed" });
    expect(note.message).toBe("An administrator changed your role from Project Owner to Verifier.");
    expect(await inbox(admin)).toEqual([]);
  });

  it("follows a milestone through verification: each step tells exactly who needs to know", async () => {
    const [owner, investor, verifier, otherVerifier] = [
      await t.user("project_owner"),
      await t.user("investor"),
      await t.user("verifier"),
      await t.user("verifier"),
    ];
    const project = await makeProject(t, {
      owner,
      investors: [investor],
      verifiers: [verifier, otherVerifier],
      name: "Harbour Bridge",
    });
    const milestone = await makeMilestone(t, project, { title: "Deck pour", capitalAmount: 40_000 });
    const everyone = [owner, investor, verifier, otherVerifier];
    const seen = new Map(everyone.map((u) => [u.id, 0]));
    /** Who received something since the last call, with that newest title and category. */
    const received = async () => {
      const result: Record<string, string> = {};
      for (const user of everyone) {
        const items = await inbox(user);
        const fresh = items.length - (seen.get(user.id) ?? 0);
        seen.set(user.id, items.length);
        if (fresh > 0) result[user.id] = `${items[0].title} (${items[0].category})${fresh > 1 ? ` x${fresh}` : ""}`;
      }
      return result;
    };
    const act = async (as: TestUser, action: string, body?: unknown) => {
      const res = await t.request("POST", `/api/milestones/${milestone.id}/${action}`, { as, body });
      expect(res.status, `${action}: ${JSON.stringify(res.body)}`).toBe(200);
    };

    await act(verifier, "start");
    expect(await received()).toEqual({
      [owner.id]: "Verification started (verification)",
      [investor.id]: "Verification started (verification)",
    });
    await act(verifier, "reject", { comments: "The pour records are missing." });
    expect(await received()).toEqual({
      [owner.id]: "Milestone rejected (verification)",
      [investor.id]: "Milestone rejected (verification)",
    });
    await act(owner, "resubmit");
    // The investors were told the capital is withheld: they are told it is back for verification, too.
    expect(await received()).toEqual({
      [verifier.id]: "Milestone resubmitted (milestone)",
      [investor.id]: "Milestone resubmitted (milestone)",
    });
    await act(verifier, "start");
    await received();
    await act(verifier, "approve", { comments: "Records complete." });
    const approved = await received();
    expect(approved).toEqual({
      [owner.id]: "Milestone verified (verification)",
      [investor.id]: "Milestone verified (verification)",
    });
    expect((await inbox(owner))[0].message).toContain("$40,000 approved for capital release");

    const later = await makeMilestone(t, project, { title: "Lighting", capitalAmount: 10_000 });
    const delayed = await t.request("POST", `/api/milestones/${later.id}/delay`, { as: owner });
    expect(delayed.status).toBe(200);
    // Delayed: the investors are told (no verifier has taken it up yet, so no verifier).
    expect(await received()).toEqual({ [investor.id]: "Milestone delayed (milestone)" });
  });

  it("tells nobody when an action is refused", async () => {
    const [owner, investor, verifier] = [
      await t.user("project_owner"),
      await t.user("investor"),
      await t.user("verifier"),
    ];
    const project = await makeProject(t, { owner, investors: [investor], verifiers: [verifier] });
    const milestone = await makeMilestone(t, project);
    const refused = await t.request("POST", `/api/milestones/${milestone.id}/approve`, { as: verifier, body: {} });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    const byOwner = await t.request("POST", `/api/milestones/${milestone.id}/start`, { as: owner });
    expect(byOwner.status).toBeGreaterThanOrEqual(400);
    for (const user of [owner, investor, verifier]) expect(await inbox(user)).toEqual([]);
  });

  it("tells a verifier removed from a project nothing more about the milestones they worked on there", async () => {
    const [admin, owner, investor, verifier, otherVerifier] = [
      await t.user("admin"),
      await t.user("project_owner"),
      await t.user("investor"),
      await t.user("verifier"),
      await t.user("verifier"),
    ];
    const project = await makeProject(t, {
      owner,
      investors: [investor],
      verifiers: [verifier, otherVerifier],
      name: "Quay Wall",
    });
    const milestone = await makeMilestone(t, project, { title: "Sheet piles", dueInDays: 2 });
    const later = await makeMilestone(t, project, { title: "Capping beam", dueInDays: 40 });
    for (const [m, action, body] of [
      [milestone, "start"],
      [milestone, "reject", { comments: "No pile logs." }],
      [later, "start"],
      [later, "reject", { comments: "No drawings." }],
    ] as const) {
      const res = await t.request("POST", `/api/milestones/${m.id}/${action}`, { as: verifier, body });
      expect(res.status, `${action}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    const removed = await t.request("DELETE", `/api/projects/${project.id}/members/${verifier.id}?role=verifier`, {
      as: admin,
    });
    expect(removed.status).toBe(204);
    const told = (await inbox(verifier)).length;

    // Resubmitted: back in the queue of the verifiers still on the project, not of the one who left it.
    expect((await t.request("POST", `/api/milestones/${milestone.id}/resubmit`, { as: owner })).status).toBe(200);
    expect((await inbox(verifier)).length).toBe(told);
    expect((await inbox(otherVerifier))[0]).toMatchObject({ title: "Milestone resubmitted" });
    expect((await t.request("POST", `/api/milestones/${later.id}/delay`, { as: owner })).status).toBe(200);
    expect((await inbox(verifier)).length).toBe(told);
    expect((await inbox(investor))[0]).toMatchObject({ title: "Milestone delayed" });
    await notifyDueSoonMilestones(t.deps);
    expect((await inbox(verifier)).length).toBe(told);
    expect((await inbox(otherVerifier)).map((n) => n.message)).toContainEqual(
      expect.stringContaining('"Sheet piles" (Quay Wall) is due on'),
    );
  });
});

describe("a notification's email", () => {
  const emailsTo = async (address: string) =>
    (await t.deps.db.select().from(outbox).where(eq(outbox.topic, "email"))).filter(
      (row) => (row.payload as { to: string }).to === address,
    );

  it("is written with the notification, for those who want it at once, and rendered when it is sent", async () => {
    const actor = await t.user("verifier");
    const instant = await t.user("project_owner");
    const digest = await t.user("investor");
    const admin = await t.user("admin");
    await t.deps.db.insert(emailPreferences).values({ userId: digest.id, category: "verification", mode: "digest" });
    await t.deps.db.transaction((tx) =>
      notify(
        tx,
        [instant.id, digest.id, actor.id],
        {
          title: "Milestone verified",
          message: "Foundations were verified.",
          category: "verification",
          link: "/milestones/m1",
        },
        actor.id,
      ),
    );
    expect(await emailsTo(actor.email)).toEqual([]);
    expect(await emailsTo(digest.email)).toEqual([]);
    const [queued] = await emailsTo(instant.email);
    expect(queued.payload).toEqual({
      to: instant.email,
      kind: "notification",
      subject: "Milestone verified",
      notification: {
        title: "Milestone verified",
        message: "Foundations were verified.",
        category: "verification",
        link: "/milestones/m1",
      },
    });

    await createOutboxWorker(t.deps, outboxTopics(t.deps)).drain();
    const [sent] = await emailsTo(instant.email);
    expect(sent).toMatchObject({ status: "done", payload: { via: "stored" } });
    const listed = await t.request("GET", "/api/outbox/emails", { as: admin });
    const shown = (listed.body as { id: string; status: string; subject: string; text: string; link: string }[]).find(
      (email) => email.id === sent.id,
    );
    expect(shown).toMatchObject({ status: "stored", subject: "Milestone verified" });
    expect(shown?.text).toContain("Foundations were verified.");
    expect(shown?.text).toContain("your email setting for Verification is Instant");
    expect(shown?.link).toBe(`${t.deps.env.PUBLIC_URL}/milestones/m1`);
  });

  it("queued by the earlier two-step topic, becomes one email message with the upgrade (migration 0028)", async () => {
    const user = await t.user("project_owner");
    const [note] = await t.deps.db
      .insert(notifications)
      .values({ userId: user.id, title: "Earlier", message: "Queued before.", category: "release", link: null })
      .returning();
    const waiting = await enqueue(t.deps.db, "email.notification", { notificationId: note.id });
    const handled = await enqueue(t.deps.db, "email.notification", { notificationId: note.id, handled: true });
    const file = new URL("../drizzle/0028_notification_emails_one_message.sql", import.meta.url);
    for (const statement of readFileSync(file, "utf8").split("--> statement-breakpoint")) {
      await t.deps.db.execute(sql.raw(statement));
    }
    const [converted] = await t.deps.db.select().from(outbox).where(eq(outbox.id, waiting));
    expect(converted).toMatchObject({
      topic: "email",
      status: "pending",
      payload: {
        to: user.email,
        kind: "notification",
        subject: "Earlier",
        notification: { message: "Queued before." },
      },
    });
    const [finished] = await t.deps.db.select().from(outbox).where(eq(outbox.id, handled));
    expect(finished.status).toBe("done");
    await createOutboxWorker(t.deps, outboxTopics(t.deps)).drain();
    const [sent] = await t.deps.db.select().from(outbox).where(eq(outbox.id, waiting));
    expect(sent).toMatchObject({ status: "done", payload: { via: "stored" } });
  });
});
