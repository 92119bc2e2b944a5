// Issue 12 (people): invitations, password reset and notification email, received through a real SMTP server
// started here, parsed with mailparser, their links followed.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, invitations, passwordResets, projectMembers } from "../src/db/schema";
import { lastDigestTime, queueDigests } from "../src/services/email/digest";
import { notify } from "../src/services/notifications/notify";
import { outboxTopics } from "../src/services/outbox/topics";
import { createOutboxWorker } from "../src/services/outbox/worker";
import { makeProject } from "./factories";
import { cookieFrom, createTestApp, type TestApp, type TestUser } from "./harness";
import { actionLink, startSmtp, type TestMailbox } from "./smtp";

const PUBLIC_URL = "https://tranche.example.test";
const PASSWORD = "Correct-Horse-Battery-Staple-93";
const NEW_PASSWORD = "Another-Long-Passphrase-For-Tranche-41";

let t: TestApp;
let mail: TestMailbox;
let admin: TestUser;
const deliver = () => createOutboxWorker(t.deps, outboxTopics(t.deps)).drain();

/** Delivers the outbox and returns the one new message to `address`. */
async function nextMail(address: string) {
  const before = mail.to(address).length;
  await deliver();
  const received = mail.to(address);
  expect(received.length, `mail to ${address}`).toBe(before + 1);
  return received[received.length - 1];
}

const as = (cookie: string) => ({ cookie }) as TestUser;

beforeAll(async () => {
  mail = await startSmtp();
  t = await createTestApp({ SMTP_URL: mail.url, PUBLIC_URL, PASSWORD_RESET_LIMIT_PER_IP: 10 });
  admin = await t.user("admin", { name: "Alex Admin" });
});
afterAll(async () => {
  await t?.close();
  await mail?.close();
});

describe("invitations", () => {
  it("invites by email; the link sets name and password and signs the person in with the role and projects", async () => {
    const owner = await t.user("project_owner");
    const project = await makeProject(t, { owner, name: "Harbour Wind" });
    const res = await t.request("POST", "/api/invitations", {
      as: admin,
      body: { email: "Dana@Fund.example", role: "investor", organization: "North Fund", projectIds: [project.id] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      email: "dana@fund.example",
      role: "investor",
      organization: "North Fund",
      projects: [{ id: project.id, name: "Harbour Wind" }],
      invitedBy: "Alex Admin",
      status: "pending",
    });
    expect(new Date(res.body.expiresAt).getTime() - Date.now()).toBeGreaterThan(71.9 * 3_600_000);

    const email = await nextMail("dana@fund.example");
    expect(email.subject).toBe("You are invited to Tranche");
    expect(email.html).toMatch(/^<!DOCTYPE html>[\s\S]*<\/html>$/);
    expect(email.text).toContain("Alex Admin invited you to join Tranche as an Investor for North Fund.");
    expect(email.text).toContain("You receive this email because an administrator of Tranche invited");
    const link = actionLink(email);
    expect(link.origin + link.pathname).toBe(`${PUBLIC_URL}/invite`);
    expect(email.html).toContain(link.toString().replaceAll("&", "&amp;"));
    const token = link.searchParams.get("token") as string;

    const lookup = await t.request("POST", "/api/invitations/lookup", { body: { token } });
    expect(lookup.body).toMatchObject({ email: "dana@fund.example", role: "investor", organization: "North Fund" });

    const accepted = await t.request("POST", "/api/invitations/accept", {
      body: { token, name: "Dana Lee", password: PASSWORD },
    });
    expect(accepted.status).toBe(201);
    const me = await t.request("GET", "/api/me", { as: as(cookieFrom(accepted.headers)) });
    expect(me.body).toMatchObject({ name: "Dana Lee", email: "dana@fund.example", role: "investor" });
    const members = await t.deps.db.select().from(projectMembers).where(eq(projectMembers.userId, me.body.id));
    expect(members.map((m) => [m.projectId, m.role])).toEqual([[project.id, "investor"]]);
    const signIn = await t.request("POST", "/api/auth/sign-in", {
      body: { email: "dana@fund.example", password: PASSWORD },
    });
    expect(signIn.status).toBe(200);

    // Single use: the same link again is refused and creates nothing.
    const again = await t.request("POST", "/api/invitations/accept", {
      body: { token, name: "Someone Else", password: PASSWORD },
    });
    expect(again.status).toBe(410);
    expect(again.body.error.message).toMatch(/already been used/);
    expect((await t.request("GET", "/api/invitations", { as: admin })).body).toEqual([]);
  });

  it("answers 409 for an address that has an account or a pending invitation, 403 for non-admins", async () => {
    const taken = await t.user("verifier");
    const res = await t.request("POST", "/api/invitations", { as: admin, body: { email: taken.email, role: "admin" } });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({
      code: "conflict",
      details: { email: "An account with this email already exists." },
    });
    expect(
      (await t.request("POST", "/api/invitations", { as: admin, body: { email: "twice@x.test", role: "verifier" } }))
        .status,
    ).toBe(201);
    const twice = await t.request("POST", "/api/invitations", {
      as: admin,
      body: { email: "twice@x.test", role: "verifier" },
    });
    expect(twice.status).toBe(409);
    const bad = await t.request("POST", "/api/invitations", { as: admin, body: { email: "nope", role: "boss" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toMatchObject({ email: "Enter a valid email address." });
    const investor = await t.user("investor");
    expect(
      (await t.request("POST", "/api/invitations", { as: investor, body: { email: "a@b.test", role: "admin" } }))
        .status,
    ).toBe(403);
    await deliver();
  });

  it("expires after 72 hours; resend makes a new link (the old one stops working); revoke ends it", async () => {
    await t.request("POST", "/api/invitations", { as: admin, body: { email: "late@x.test", role: "verifier" } });
    const first = actionLink(await nextMail("late@x.test")).searchParams.get("token") as string;
    await t.deps.db
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.email, "late@x.test"));
    const expired = await t.request("POST", "/api/invitations/accept", {
      body: { token: first, name: "Late Comer", password: PASSWORD },
    });
    expect(expired.status).toBe(410);
    expect(expired.body.error.message).toMatch(/expired/);

    const list = (await t.request("GET", "/api/invitations", { as: admin })).body;
    const invite = list.find((i: { email: string }) => i.email === "late@x.test");
    expect(invite.status).toBe("expired");
    const resent = await t.request("POST", `/api/invitations/${invite.id}/resend`, { as: admin });
    expect(resent.body.status).toBe("pending");
    const second = actionLink(await nextMail("late@x.test")).searchParams.get("token") as string;
    expect(second).not.toBe(first);
    expect((await t.request("POST", "/api/invitations/lookup", { body: { token: first } })).status).toBe(404);
    expect((await t.request("POST", "/api/invitations/lookup", { body: { token: second } })).status).toBe(200);

    expect((await t.request("DELETE", `/api/invitations/${invite.id}`, { as: admin })).status).toBe(204);
    expect((await t.request("POST", "/api/invitations/lookup", { body: { token: second } })).status).toBe(410);
    expect((await t.request("DELETE", `/api/invitations/${invite.id}`, { as: admin })).status).toBe(404);
  });

  it("keeps an invited address for the invitation: a self sign-up with it creates nothing and tells the address", async () => {
    const invited = await t.request("POST", "/api/invitations", {
      as: admin,
      body: { email: "ravi@fund.example", role: "verifier" },
    });
    expect(invited.status).toBe(201);
    const token = actionLink(await nextMail("ravi@fund.example")).searchParams.get("token") as string;

    // Whoever types the address first answers as any sign-up does, but no account is made with it.
    const squatted = await t.request("POST", "/api/auth/sign-up", {
      body: { name: "Not Ravi", email: "ravi@fund.example", password: NEW_PASSWORD },
    });
    expect(squatted.status).toBe(201);
    expect(squatted.headers.get("set-cookie") ?? "").not.toContain("tranche_session=");
    const notice = await nextMail("ravi@fund.example");
    expect(notice.subject).toBe("Someone tried to sign up to Tranche with your email");
    expect(notice.text).toContain(
      "which an administrator has invited. No account was created, and your invitation still works.",
    );

    // The invitation still makes the account, with the role it was sent for.
    const accepted = await t.request("POST", "/api/invitations/accept", {
      body: { token, name: "Ravi Menon", password: PASSWORD },
    });
    expect(accepted.status).toBe(201);
    const me = await t.request("GET", "/api/me", { as: as(cookieFrom(accepted.headers)) });
    expect(me.body).toMatchObject({ email: "ravi@fund.example", role: "verifier", name: "Ravi Menon" });
  });

  it("accepted in a browser signed in as someone else, ends that session as signing in does", async () => {
    await t.request("POST", "/api/invitations", {
      as: admin,
      body: { email: "shared.laptop@x.test", role: "verifier" },
    });
    const token = actionLink(await nextMail("shared.laptop@x.test")).searchParams.get("token") as string;
    const before = await t.user("investor");
    const refused = await t.request("POST", "/api/invitations/accept", {
      as: before,
      body: { token, name: "Sam Shared", password: "short" },
    });
    expect(refused.status).toBe(400);
    // A refused acceptance changes nothing: the session signed in before still works.
    expect((await t.request("GET", "/api/me", { as: before })).status).toBe(200);

    const accepted = await t.request("POST", "/api/invitations/accept", {
      as: before,
      body: { token, name: "Sam Shared", password: PASSWORD },
    });
    expect(accepted.status).toBe(201);
    // The browser's cookie now names the new account; the session it replaced is ended, not left open.
    expect((await t.request("GET", "/api/me", { as: before })).status).toBe(401);
    const me = await t.request("GET", "/api/me", { as: as(cookieFrom(accepted.headers)) });
    expect(me.body).toMatchObject({ email: "shared.laptop@x.test", role: "verifier" });
    await deliver();
  });

  it("works only while the admin who sent it is still an admin, as their API tokens do", async () => {
    const leaving = await t.user("admin", { name: "Lee Leaving" });
    const sent = await t.request("POST", "/api/invitations", {
      as: leaving,
      body: { email: "backdoor@x.test", role: "admin" },
    });
    expect(sent.status).toBe(201);
    const token = actionLink(await nextMail("backdoor@x.test")).searchParams.get("token") as string;
    const demoted = await t.request("PATCH", `/api/users/${leaving.id}`, { as: admin, body: { role: "investor" } });
    expect(demoted.status).toBe(200);

    const lookup = await t.request("POST", "/api/invitations/lookup", { body: { token } });
    expect(lookup.status).toBe(410);
    expect(lookup.body.error.message).toMatch(/no longer an administrator/);
    const accepted = await t.request("POST", "/api/invitations/accept", {
      body: { token, name: "Back Door", password: PASSWORD },
    });
    expect(accepted.status).toBe(410);
    expect(cookieFrom(accepted.headers)).toBe("");
    const users = (await t.request("GET", "/api/users?q=backdoor", { as: admin })).body;
    expect(users.items).toEqual([]);

    // An admin who still is one may send it again: the new link is theirs.
    const list = (await t.request("GET", "/api/invitations", { as: admin })).body;
    const invite = list.find((i: { email: string }) => i.email === "backdoor@x.test");
    // The list says the link has stopped, as the link itself does.
    expect(invite).toMatchObject({ invitedBy: "Lee Leaving", status: "inviter_inactive" });
    const resent = await t.request("POST", `/api/invitations/${invite.id}/resend`, { as: admin });
    expect(resent.body).toMatchObject({ invitedBy: "Alex Admin", status: "pending" });
    const again = actionLink(await nextMail("backdoor@x.test")).searchParams.get("token") as string;
    expect((await t.request("POST", "/api/invitations/lookup", { body: { token: again } })).status).toBe(200);
  });

  it("keeps self sign-up for project owners, switchable with ALLOW_SIGNUP", async () => {
    const body = { name: "Open Door", email: "open@x.test", password: PASSWORD };
    t.deps.env.ALLOW_SIGNUP = false;
    try {
      expect((await t.request("GET", "/api/auth/options")).body).toEqual({ signUpAllowed: false });
      const closed = await t.request("POST", "/api/auth/sign-up", { body });
      expect(closed.status).toBe(403);
      expect(closed.body.error.message).toMatch(/Ask an administrator for an invitation/);
    } finally {
      t.deps.env.ALLOW_SIGNUP = true;
    }
    expect((await t.request("POST", "/api/auth/sign-up", { body })).status).toBe(201);
  });
});

describe("password reset", () => {
  const FORGOT = "/api/auth/forgot-password";
  const from = (ip: string) => ({ "x-forwarded-for": ip });

  it("emails a single-use link; the reset ends every session and sends 'your password was changed'", async () => {
    const email = "reset.me@x.test";
    await t.request("POST", "/api/auth/sign-up", { body: { name: "Rita Reset", email, password: PASSWORD } });
    // Sign-up sends the link that confirms the address first.
    expect((await nextMail(email)).subject).toBe("Confirm your email for Tranche");
    const sessions = await Promise.all(
      [1, 2].map(() => t.request("POST", "/api/auth/sign-in", { body: { email, password: PASSWORD } })),
    );
    const cookies = sessions.map((s) => cookieFrom(s.headers));
    const res = await t.request("POST", FORGOT, { body: { email }, headers: from("203.0.113.1") });
    expect(res.status).toBe(202);

    const message = await nextMail(email);
    expect(message.subject).toBe("Reset your Tranche password");
    expect(message.text).toContain("expires in 30 minutes");
    const link = actionLink(message);
    expect(link.origin + link.pathname).toBe(`${PUBLIC_URL}/reset-password`);
    const token = link.searchParams.get("token") as string;

    const weak = await t.request("POST", "/api/auth/reset-password", { body: { token, password: "password1234" } });
    expect(weak.status).toBe(422);
    expect((await t.request("GET", "/api/me", { as: as(cookies[0]) })).status).toBe(200);

    expect(
      (await t.request("POST", "/api/auth/reset-password", { body: { token, password: NEW_PASSWORD } })).status,
    ).toBe(204);
    for (const cookie of cookies) expect((await t.request("GET", "/api/me", { as: as(cookie) })).status).toBe(401);
    expect((await t.request("POST", "/api/auth/sign-in", { body: { email, password: PASSWORD } })).status).toBe(401);
    expect((await t.request("POST", "/api/auth/sign-in", { body: { email, password: NEW_PASSWORD } })).status).toBe(
      200,
    );
    const changed = await nextMail(email);
    expect(changed.subject).toBe("Your Tranche password was changed");
    expect(actionLink(changed).toString()).toBe(`${PUBLIC_URL}/login`);

    const reused = await t.request("POST", "/api/auth/reset-password", { body: { token, password: PASSWORD } });
    expect(reused.status).toBe(410);
    expect((await t.request("POST", "/api/auth/sign-in", { body: { email, password: NEW_PASSWORD } })).status).toBe(
      200,
    );
  });

  it("refuses a link after 30 minutes, and an unknown one", async () => {
    const user = await t.user("investor");
    await t.request("POST", FORGOT, { body: { email: user.email }, headers: from("203.0.113.2") });
    const token = actionLink(await nextMail(user.email)).searchParams.get("token") as string;
    await t.deps.db
      .update(passwordResets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResets.userId, user.id));
    const late = await t.request("POST", "/api/auth/reset-password", { body: { token, password: NEW_PASSWORD } });
    expect(late.status).toBe(410);
    expect(late.body.error.message).toMatch(/expired/);
    expect((await t.request("GET", "/api/me", { as: user })).status).toBe(200);
    const unknown = await t.request("POST", "/api/auth/reset-password", {
      body: { token: "x".repeat(43), password: NEW_PASSWORD },
    });
    expect(unknown.status).toBe(404);
  });

  it("ends the links already sent when the signed-in person changes their password", async () => {
    const email = "changes.first@x.test";
    await t.request("POST", "/api/auth/sign-up", { body: { name: "Carl Change", email, password: PASSWORD } });
    await nextMail(email);
    await t.request("POST", FORGOT, { body: { email }, headers: from("203.0.113.3") });
    const token = actionLink(await nextMail(email)).searchParams.get("token") as string;
    const signedIn = await t.request("POST", "/api/auth/sign-in", { body: { email, password: PASSWORD } });
    const change = await t.request("POST", "/api/auth/change-password", {
      as: as(cookieFrom(signedIn.headers)),
      body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(change.status).toBe(204);

    // Whoever else holds the link (an old email, a shared mailbox) cannot undo the change with it.
    expect((await t.request("POST", "/api/auth/reset-password/lookup", { body: { token } })).status).toBe(410);
    const reused = await t.request("POST", "/api/auth/reset-password", {
      body: { token, password: "Someone-Elses-Passphrase-77" },
    });
    expect(reused.status).toBe(410);
    expect((await t.request("POST", "/api/auth/sign-in", { body: { email, password: NEW_PASSWORD } })).status).toBe(
      200,
    );
  });

  it("answers the same, in similar time, whether or not an account has the address", async () => {
    const known = await Promise.all([1, 2, 3, 4, 5, 6].map(() => t.user("verifier")));
    const timed = async (email: string, ip: string) => {
      const started = performance.now();
      const res = await t.request("POST", FORGOT, { body: { email }, headers: from(ip) });
      return { ms: performance.now() - started, status: res.status, body: res.body };
    };
    const a = [];
    const b = [];
    for (const [i, user] of known.entries()) {
      a.push(await timed(user.email, `192.0.2.${i + 10}`));
      b.push(await timed(`nobody.${i}@x.test`, `192.0.2.${i + 30}`));
    }
    expect(new Set([...a, ...b].map((r) => JSON.stringify([r.status, r.body]))).size).toBe(1);
    const median = (rs: { ms: number }[]) => rs.map((r) => r.ms).sort((x, y) => x - y)[Math.floor(rs.length / 2)];
    // Both answers do the same work (two counters and one outbox row): no lookup happens before answering.
    expect(Math.abs(median(a) - median(b))).toBeLessThan(Math.max(75, median(b)));
    const before = mail.messages.length;
    await deliver();
    expect(mail.messages.length - before).toBe(known.length);
  });

  it("limits requests per IP and per address (429 with Retry-After)", async () => {
    for (let i = 0; i < 10; i++) {
      expect(
        (await t.request("POST", FORGOT, { body: { email: `ip.${i}@x.test` }, headers: from("198.51.100.50") })).status,
      ).toBe(202);
    }
    const ipLimited = await t.request("POST", FORGOT, {
      body: { email: "ip.x@x.test" },
      headers: from("198.51.100.50"),
    });
    expect(ipLimited.status).toBe(429);
    expect(Number(ipLimited.headers.get("retry-after"))).toBeGreaterThan(0);

    // Per (address, IP): three an hour…
    for (let i = 0; i < 3; i++) {
      expect(
        (await t.request("POST", FORGOT, { body: { email: "same@x.test" }, headers: from("198.51.100.60") })).status,
      ).toBe(202);
    }
    const pairLimited = await t.request("POST", FORGOT, {
      body: { email: "same@x.test" },
      headers: from("198.51.100.60"),
    });
    expect(pairLimited.status).toBe(429);
    // …and ten an hour for the address from all IPs together (a known device of the account has its own: ADR 014).
    for (let i = 0; i < 7; i++) {
      expect(
        (await t.request("POST", FORGOT, { body: { email: "same@x.test" }, headers: from(`198.51.100.${61 + i}`) }))
          .status,
      ).toBe(202);
    }
    const emailLimited = await t.request("POST", FORGOT, {
      body: { email: "same@x.test" },
      headers: from("198.51.100.70"),
    });
    expect(emailLimited.status).toBe(429);
    await deliver();
  });
});

describe("notification email", () => {
  it("defaults to instant for releases and decisions, digest for the rest; a person may change each", async () => {
    const user = await t.user("investor");
    const prefs = await t.request("GET", "/api/me/email-preferences", { as: user });
    expect(prefs.body).toEqual({ verification: "instant", releases: "instant", projects: "digest", account: "digest" });
    const bad = await t.request("PUT", "/api/me/email-preferences", {
      as: user,
      body: { ...prefs.body, releases: "hourly" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual({ releases: "Choose instant, daily digest or off." });
    const set = await t.request("PUT", "/api/me/email-preferences", {
      as: user,
      body: { verification: "off", releases: "instant", projects: "digest", account: "instant" },
    });
    expect(set.body).toEqual({ verification: "off", releases: "instant", projects: "digest", account: "instant" });
    // Audited as every change is; the refused one above wrote nothing.
    const audited = await t.deps.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, user.id), eq(auditEvents.action, "user.email_preferences_updated")));
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({
      actorId: user.id,
      before: prefs.body,
      after: { verification: "off", releases: "instant", projects: "digest", account: "instant" },
    });

    // A real action: an admin changes the role (category account, now instant).
    await t.request("PATCH", `/api/users/${user.id}`, { as: admin, body: { role: "verifier" } });
    const roleMail = await nextMail(user.email);
    expect(roleMail.subject).toBe("Your role has changed");
    expect(roleMail.text).toContain("your email setting for Account is Instant");
    expect(actionLink(roleMail).toString()).toBe(`${PUBLIC_URL}/dashboard`);

    const before = mail.to(user.email).length;
    await t.deps.db.transaction((tx) =>
      notify(tx, [user.id], { title: "Milestone verified", message: "Approved.", category: "verification" }),
    );
    await deliver();
    expect(mail.to(user.email).length, "verification is off").toBe(before);
  });

  it("sends the daily digest once the digest hour has passed, once a day, with what the person set to digest", async () => {
    const user = await t.user("project_owner");
    const other = await t.user("project_owner");
    await t.request("PUT", "/api/me/email-preferences", {
      as: other,
      body: { verification: "instant", releases: "instant", projects: "off", account: "off" },
    });
    await t.deps.db.transaction(async (tx) => {
      await notify(tx, [user.id, other.id], {
        title: "Milestone added",
        message: "Foundations poured.",
        category: "milestone",
      });
      await notify(tx, [user.id], { title: "Milestone resubmitted", message: "Roof finished.", category: "milestone" });
    });
    await deliver();
    expect(mail.to(user.email), "digest categories send nothing at once").toEqual([]);

    const hour = t.deps.env.DIGEST_HOUR_UTC;
    const next = lastDigestTime(new Date(Date.now() + 86_400_000), hour);
    expect(await queueDigests(t.deps, new Date(next.getTime() - 60_000))).toBe(0);
    const at = new Date(next.getTime() + 5 * 60_000);
    expect(await queueDigests(t.deps, at)).toBeGreaterThanOrEqual(1);
    const digest = await nextMail(user.email);
    expect(digest.subject).toBe("Your Tranche digest: 2 updates");
    expect(digest.text).toContain("- Milestone added: Foundations poured.");
    expect(digest.text).toContain("- Milestone resubmitted: Roof finished.");
    expect(actionLink(digest).toString()).toBe(`${PUBLIC_URL}/notifications`);
    expect(mail.to(other.email), "projects off: no digest").toEqual([]);

    // Once a day: a second run (another process, or the next tick) sends nothing new.
    expect(await queueDigests(t.deps, new Date(at.getTime() + 3_600_000))).toBe(0);
    await t.deps.db.transaction((tx) =>
      notify(tx, [user.id], { title: "Milestone delayed", message: "Rain.", category: "milestone" }),
    );
    expect(await queueDigests(t.deps, new Date(at.getTime() + 3_600_000))).toBe(0);
    expect(await queueDigests(t.deps, new Date(at.getTime() + 86_400_000))).toBeGreaterThanOrEqual(1);
    const tomorrow = await nextMail(user.email);
    expect(tomorrow.subject).toBe("Your Tranche digest: 1 update");
    expect(tomorrow.text).not.toContain("Foundations poured");
  });

  it("shows admins every email and how it was handled; sent messages keep their links private", async () => {
    const res = await t.request("GET", "/api/outbox/emails", { as: admin });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(5);
    for (const email of res.body) {
      expect(email).toMatchObject({ status: "sent", text: null, link: null, linkWithheld: null });
    }
    const investor = await t.user("investor");
    expect((await t.request("GET", "/api/outbox/emails", { as: investor })).status).toBe(403);
  });
});

describe("profile", () => {
  it("changes name and organization; expertise only for verifiers; a picture is stored and served", async () => {
    const verifier = await t.user("verifier");
    const res = await t.request("PATCH", "/api/me/profile", {
      as: verifier,
      body: { name: "Maria Santos", organization: "GreenCheck", expertise: ["Solar", "Solar", "Grid"] },
    });
    expect(res.body).toMatchObject({ name: "Maria Santos", organization: "GreenCheck", expertise: ["Solar", "Grid"] });
    expect((await t.request("GET", "/api/me", { as: verifier })).body.name).toBe("Maria Santos");
    const investor = await t.user("investor");
    const refused = await t.request("PATCH", "/api/me/profile", {
      as: investor,
      body: { name: "Ivan", organization: "", expertise: ["Solar"] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual({ expertise: "Only verifiers list areas of expertise." });
    const empty = await t.request("PATCH", "/api/me/profile", { as: investor, body: { name: " ", organization: "" } });
    expect(empty.body.error.details).toEqual({ name: "Full name is required." });

    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
      "base64",
    );
    const put = await t.app.request("/api/me/avatar", {
      method: "PUT",
      headers: { cookie: verifier.cookie, "content-type": "image/png" },
      body: png,
    });
    expect(put.status).toBe(200);
    const { avatar } = (await put.json()) as { avatar: string };
    expect(avatar).toMatch(new RegExp(`^/api/users/${verifier.id}/avatar\\?v=`));
    const image = await t.app.request(avatar, { headers: { cookie: investor.cookie } });
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await image.arrayBuffer()).equals(png)).toBe(true);
    const fake = await t.app.request("/api/me/avatar", {
      method: "PUT",
      headers: { cookie: verifier.cookie, "content-type": "image/png" },
      body: "<svg onload=alert(1)>",
    });
    expect(fake.status).toBe(400);
  });
});

describe("an email's HTML body", () => {
  it("reads as its text does: paragraphs HTML-escaped, never percent-encoded", async () => {
    const res = await t.request("POST", "/api/invitations", {
      as: await t.user("admin", { name: "Ann O'Hara & <Partners>" }),
      body: { email: "paragraphs@fund.example", role: "investor", organization: 'Rock & Roll "Capital"' },
    });
    expect(res.status).toBe(201);
    const email = await nextMail("paragraphs@fund.example");
    const sentence = `Ann O'Hara & <Partners> invited you to join Tranche as an Investor for Rock & Roll "Capital".`;
    expect(email.text).toContain(sentence);
    const html = String(email.html);
    expect(html).toContain(
      "Ann O&#39;Hara &amp; &lt;Partners&gt; invited you to join Tranche as an Investor for Rock &amp; Roll &quot;Capital&quot;.",
    );
    expect(html).not.toMatch(/%20|%26|%3C/);
    // What a mail client shows of the HTML is the text's paragraph.
    const shown = html
      .replace(/<[^>]+>/g, "")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, "&");
    expect(shown).toContain(sentence);
  });
});
