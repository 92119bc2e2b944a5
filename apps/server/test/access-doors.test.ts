// The access doors of issue 21, each walked through as an attacker would: invitations and the Outbox without the
// second factor, a token that outlives its creator's role, counters that count late, a sign-up that names taken
// addresses, limits a stranger can spend for the owner, and requests a sibling origin can send for a signed-in person.
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintApiToken } from "../src/auth/api-tokens";
import { apiTokens, invitations, notifications, outbox, sessions, users } from "../src/db/schema";
import { outboxTopics } from "../src/services/outbox/topics";
import { createOutboxWorker } from "../src/services/outbox/worker";
import { createTestApp, givePassword, type TestApp, type TestUser } from "./harness";

const PER_ACCOUNT_IP = 3;
const PER_ACCOUNT = 6;
const GOOD = "correct horse battery staple";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SIGNIN_FAILURES_PER_ACCOUNT_IP: PER_ACCOUNT_IP, SIGNIN_FAILURES_PER_ACCOUNT: PER_ACCOUNT });
});
afterAll(() => t.close());

const from = (ip: string, extra: Record<string, string> = {}) => ({ "x-forwarded-for": ip, ...extra });
const deliver = () => createOutboxWorker(t.deps, outboxTopics(t.deps)).drain();
const step = () => Math.floor(Date.now() / 30_000);
const codeAt = (secret: string, at: number) => generateHOTP(decodeBase32IgnorePadding(secret), BigInt(at), 6);
let ipCounter = 0;
const freshIp = () => `203.0.113.${++ipCounter}`;

/** Sets up an authenticator app through the API, then forgets that this session passed it. */
async function enrolledWithoutPassing(user: TestUser): Promise<string> {
  const password = await givePassword(t, user);
  const setup = await t.request("POST", "/api/auth/mfa/totp/setup", { as: user, body: { password } });
  const enabled = await t.request("POST", "/api/auth/mfa/totp/enable", {
    as: user,
    body: { code: codeAt(setup.body.secret, step()), password },
  });
  expect(enabled.status).toBe(200);
  await t.deps.db.update(sessions).set({ mfaVerifiedAt: null }).where(eq(sessions.userId, user.id));
  return setup.body.secret;
}

/** A person with a real password (signed up through the API), optionally made an admin. */
async function withPassword(role: "project_owner" | "admin" = "project_owner") {
  const email = `p.${Math.random().toString(36).slice(2)}@example.test`;
  const res = await t.request("POST", "/api/auth/sign-up", {
    body: { name: "Pat Doe", email, password: GOOD },
    headers: from(freshIp()),
  });
  expect(res.status).toBe(201);
  if (role !== "project_owner") await t.deps.db.update(users).set({ role }).where(eq(users.email, email));
  return email;
}

/** The device cookie a successful sign-in sets ("name=value"). */
function deviceCookie(headers: Headers): string {
  const cookie = headers.getSetCookie().find((c) => c.startsWith("tranche_device="));
  expect(cookie, "a device cookie is set on sign-in").toBeDefined();
  return (cookie as string).split(";")[0];
}

const outboxFor = async (as: TestUser, to: string) =>
  ((await t.request("GET", "/api/outbox/emails", { as })).body as any[]).filter((e) => e.to === to);

describe("invitations and the Outbox need the second factor", () => {
  it("refuses to create or resend an invitation without it, and changes nothing", async () => {
    const admin = await t.user("admin", { secondFactor: false });
    await enrolledWithoutPassing(admin);
    const passed = await t.user("admin");
    const created = await t.request("POST", "/api/invitations", {
      as: passed,
      body: { email: "resend.me@x.test", role: "verifier" },
    });
    expect(created.status).toBe(201);

    const invite = await t.request("POST", "/api/invitations", {
      as: admin,
      body: { email: "new.admin@x.test", role: "admin" },
    });
    expect(invite.status).toBe(403);
    expect(invite.body.error).toMatchObject({ code: "mfa_required", details: { enrolled: true } });
    expect(await t.deps.db.select().from(invitations).where(eq(invitations.email, "new.admin@x.test"))).toEqual([]);

    const [before] = await t.deps.db.select().from(invitations).where(eq(invitations.id, created.body.id));
    const resend = await t.request("POST", `/api/invitations/${created.body.id}/resend`, { as: admin });
    expect(resend.status).toBe(403);
    expect(resend.body.error.code).toBe("mfa_required");
    const [after] = await t.deps.db.select().from(invitations).where(eq(invitations.id, created.body.id));
    expect(after.tokenHash).toBe(before.tokenHash);
  });

  it("shows a live account link only to an admin who passed it, and never once used or expired", async () => {
    const admin = await t.user("admin", { secondFactor: false });
    await enrolledWithoutPassing(admin);
    const passed = await t.user("admin");
    await t.request("POST", "/api/invitations", { as: passed, body: { email: "dana@x.test", role: "investor" } });
    await t.request("POST", "/api/invitations", { as: passed, body: { email: "late@x.test", role: "investor" } });
    const owner = await withPassword();
    expect(
      (await t.request("POST", "/api/auth/forgot-password", { body: { email: owner }, headers: from(freshIp()) }))
        .status,
    ).toBe(202);
    await deliver();
    await deliver();

    for (const to of ["dana@x.test", owner]) {
      const [hidden] = await outboxFor(admin, to);
      expect(hidden, to).toMatchObject({ status: "stored", link: null, text: null });
      expect(hidden.linkWithheld).toBe("second_factor_required");
      const [shown] = await outboxFor(passed, to);
      expect(shown.link).toMatch(/token=/);
      expect(shown.text).toContain(shown.link);
      expect(shown.linkWithheld).toBeNull();
    }

    // Used: the invitation accepted, the reset link spent.
    const [invitation] = await outboxFor(passed, "dana@x.test");
    const token = new URL(invitation.link).searchParams.get("token");
    const accepted = await t.request("POST", "/api/invitations/accept", {
      body: { token, name: "Dana Lee", password: GOOD },
    });
    expect(accepted.status).toBe(201);
    const [reset] = await outboxFor(passed, owner);
    const resetToken = new URL(reset.link).searchParams.get("token");
    expect(
      (await t.request("POST", "/api/auth/reset-password", { body: { token: resetToken, password: `${GOOD}!` } }))
        .status,
    ).toBe(204);
    // Expired: the other invitation's time ran out.
    await t.deps.db
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.email, "late@x.test"));

    expect((await outboxFor(passed, "dana@x.test"))[0]).toMatchObject({ link: null, text: null, linkWithheld: "used" });
    expect((await outboxFor(passed, owner)).find((e) => e.kind === "password_reset")).toMatchObject({
      link: null,
      linkWithheld: "used",
    });
    expect((await outboxFor(passed, "late@x.test"))[0]).toMatchObject({ link: null, linkWithheld: "expired" });
    // An email whose link opens nothing (the "password changed" notice) is shown as before.
    await deliver();
    const changed = (await outboxFor(admin, owner)).find((e) => e.kind === "password_changed");
    expect(changed).toMatchObject({ linkWithheld: null, link: expect.stringContaining("/login") });
  });
});

describe("an API token acts only while its creator is an admin", () => {
  it("answers 401 token_owner_inactive once the creator is demoted, and the list names the creator", async () => {
    const creator = await t.user("admin");
    const other = await t.user("admin");
    const made = await t.request("POST", "/api/api-tokens", {
      as: creator,
      body: { name: "Custodian", scopes: ["releases:read", "releases:write"] },
    });
    expect(made.status).toBe(201);
    const bearer = { authorization: `Bearer ${made.body.token}` };
    expect((await t.request("GET", "/api/releases", { headers: bearer })).status).toBe(200);

    expect(
      (await t.request("PATCH", `/api/users/${creator.id}`, { as: other, body: { role: "investor" } })).status,
    ).toBe(200);
    const refused = await t.request("GET", "/api/releases", { headers: bearer });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("token_owner_inactive");
    expect(
      (
        await t.request("POST", `/api/releases/0b9e4c2a-5d7f-4e1b-9a3c-6f8d2e4b7a10/settle`, {
          headers: bearer,
          body: {},
        })
      ).body.error.code,
    ).toBe("token_owner_inactive");

    const list = (await t.request("GET", "/api/api-tokens", { as: other })).body.items as any[];
    expect(list.find((token) => token.id === made.body.id)).toMatchObject({
      createdBy: { id: creator.id, name: creator.name },
      createdByName: creator.name,
      ownerActive: false,
    });

    // Made an admin again, the token acts again: it follows the creator's role, it is not revoked.
    await t.request("PATCH", `/api/users/${creator.id}`, { as: other, body: { role: "admin" } });
    expect((await t.request("GET", "/api/releases", { headers: bearer })).status).toBe(200);
  });

  it("stops a token whose creator's account was deleted", async () => {
    const admin = await t.user("admin");
    const minted = mintApiToken();
    const [row] = await t.deps.db
      .insert(apiTokens)
      .values({
        name: "Orphan",
        tokenHash: minted.hash,
        prefix: minted.prefix,
        scopes: ["releases:read"],
        createdBy: null,
      })
      .returning({ id: apiTokens.id });
    const res = await t.request("GET", "/api/releases", { headers: { authorization: `Bearer ${minted.token}` } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("token_owner_inactive");
    const list = (await t.request("GET", "/api/api-tokens", { as: admin })).body.items as any[];
    expect(list.find((token) => token.id === row.id)).toMatchObject({
      createdBy: null,
      createdByName: null,
      ownerActive: false,
    });
  });
});

describe("failure counters count before they check", () => {
  it("evaluates at most five of 100 concurrent wrong codes; the right code after them is refused", async () => {
    const user = await t.user("verifier", { secondFactor: false });
    const secret = await enrolledWithoutPassing(user);
    const ip = freshIp();
    // Codes that are wrong now (a step far away), so each one is really checked.
    const wrong = codeAt(secret, step() + 1000);
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        t.request("POST", "/api/auth/mfa/verify", { as: user, body: { code: wrong }, headers: from(ip) }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s !== 400 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(5);
    const right = await t.request("POST", "/api/auth/mfa/verify", {
      as: user,
      body: { code: codeAt(secret, step()) },
      headers: from(ip),
    });
    expect(right.status).toBe(429);
  });

  it("evaluates at most the limit of 40 concurrent wrong passwords; the right one after them is refused", async () => {
    const email = await withPassword();
    const ip = freshIp();
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        t.request("POST", "/api/auth/sign-in", { body: { email, password: "wrong password here" }, headers: from(ip) }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(PER_ACCOUNT_IP);
    const right = await t.request("POST", "/api/auth/sign-in", { body: { email, password: GOOD }, headers: from(ip) });
    expect(right.status).toBe(429);
  });
});

describe("sign-up does not reveal a taken address", () => {
  it("answers a taken address as a new one, without a session, and emails the owner once an hour", async () => {
    const email = await withPassword();
    const fresh = await t.request("POST", "/api/auth/sign-up", {
      body: { name: "New Person", email: `n.${Date.now()}@example.test`, password: GOOD },
      headers: from(freshIp()),
    });
    const taken = await t.request("POST", "/api/auth/sign-up", {
      body: { name: "Someone Else", email, password: GOOD },
      headers: from(freshIp()),
    });
    expect(taken.status).toBe(fresh.status);
    expect(Object.keys(taken.body)).toEqual(Object.keys(fresh.body));
    expect(taken.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(taken.headers.get("set-cookie")).toBeNull();
    const [{ n }] = await t.deps.db.select({ n: sql<number>`count(*)::int` }).from(users).where(eq(users.email, email));
    expect(n).toBe(1);

    await t.request("POST", "/api/auth/sign-up", {
      body: { name: "Someone Else", email, password: GOOD },
      headers: from(freshIp()),
    });
    const told = (await t.deps.db.select().from(outbox).where(eq(outbox.topic, "email"))).filter(
      (row) => (row.payload as { to: string }).to === email,
    );
    // The account's own sign-up link to confirm the address, then one notice of the attempts.
    const kinds = told.map((row) => (row.payload as { kind: string }).kind);
    expect(kinds.sort()).toEqual(["email_verification", "signup_attempt"]);
    const attempt = told.find((row) => (row.payload as { kind: string }).kind === "signup_attempt");
    expect((attempt?.payload as { text?: string } | undefined)?.text).toContain(
      "tried to create a new Tranche account",
    );
  });
});

describe("limits stop floods without refusing the rightful person", () => {
  it("keeps the owner's reset allowance on their own browser while strangers flood the address", async () => {
    const email = await withPassword();
    const signedIn = await t.request("POST", "/api/auth/sign-in", {
      body: { email, password: GOOD },
      headers: from(freshIp()),
    });
    const device = deviceCookie(signedIn.headers);
    // Strangers from many IPs spend everything they can.
    let refused = 0;
    for (let i = 0; i < 6; i++) {
      const ip = freshIp();
      for (let j = 0; j < 4; j++) {
        const res = await t.request("POST", "/api/auth/forgot-password", { body: { email }, headers: from(ip) });
        if (res.status === 429) refused++;
      }
    }
    expect(refused).toBeGreaterThan(0);
    const fromElsewhere = await t.request("POST", "/api/auth/forgot-password", {
      body: { email },
      headers: from(freshIp()),
    });
    expect(fromElsewhere.status).toBe(429);
    // The owner's own browser still gets its link.
    const own = await t.request("POST", "/api/auth/forgot-password", {
      body: { email },
      headers: from(freshIp(), { cookie: device }),
    });
    expect(own.status).toBe(202);
  });

  it("lets an admin sign in from a known device while the account is locked against unknown ones", async () => {
    const email = await withPassword("admin");
    const first = await t.request("POST", "/api/auth/sign-in", {
      body: { email, password: GOOD },
      headers: from(freshIp()),
    });
    expect(first.status).toBe(200);
    const device = deviceCookie(first.headers);
    // Wrong passwords from several IPs reach the account's ceiling.
    for (let i = 0; i < PER_ACCOUNT / PER_ACCOUNT_IP + 1; i++) {
      const ip = freshIp();
      for (let j = 0; j < PER_ACCOUNT_IP; j++) {
        await t.request("POST", "/api/auth/sign-in", {
          body: { email, password: "not the password" },
          headers: from(ip),
        });
      }
    }
    const unknown = await t.request("POST", "/api/auth/sign-in", {
      body: { email, password: GOOD },
      headers: from(freshIp()),
    });
    expect(unknown.status).toBe(429);
    const known = await t.request("POST", "/api/auth/sign-in", {
      body: { email, password: GOOD },
      headers: from(freshIp(), { cookie: device }),
    });
    expect(known.status).toBe(200);
    // The device cookie of another account's browser does not help.
    const other = await withPassword();
    const otherIn = await t.request("POST", "/api/auth/sign-in", {
      body: { email: other, password: GOOD },
      headers: from(freshIp()),
    });
    const stranger = await t.request("POST", "/api/auth/sign-in", {
      body: { email, password: GOOD },
      headers: from(freshIp(), { cookie: deviceCookie(otherIn.headers) }),
    });
    expect(stranger.status).toBe(429);
  });
});

describe("only Tranche's own pages act for a signed-in person", () => {
  const unread = async (user: TestUser) =>
    (
      await t.deps.db
        .select({ n: sql<number>`count(*)::int` })
        .from(notifications)
        .where(and(eq(notifications.userId, user.id), eq(notifications.read, false)))
    )[0].n;

  it("refuses a body-less POST with a session cookie from another origin or site, and changes nothing", async () => {
    const user = await t.user("investor");
    await t.deps.db
      .insert(notifications)
      .values({ userId: user.id, title: "Hello", message: "There.", category: "account" });
    const attempts: Record<string, string>[] = [
      { origin: "http://localhost:3001" },
      { origin: "https://evil.localhost" },
      { origin: "null" },
      { "sec-fetch-site": "same-site" },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site", origin: "http://localhost:3000" },
      { "sec-fetch-site": "same-origin", origin: "http://sibling.localhost:3000" },
    ];
    for (const headers of attempts) {
      const res = await t.request("POST", "/api/notifications/read-all", { as: user, headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body.error.code).toBe("cross_origin_request");
      const others = await t.request("POST", "/api/auth/sessions/sign-out-others", { as: user, headers });
      expect(others.status, JSON.stringify(headers)).toBe(403);
    }
    expect(await unread(user)).toBe(1);
  });

  it("accepts its own origin, the public URL, a forwarded origin behind a trusted proxy, and clients that send neither", async () => {
    const user = await t.user("investor");
    const ok: Record<string, string>[] = [
      {},
      { "sec-fetch-site": "same-origin", origin: "http://localhost:3000" },
      { "sec-fetch-site": "same-origin", origin: "http://localhost" },
      { "sec-fetch-site": "none" },
      { origin: "https://tranche.example", "x-forwarded-proto": "https", "x-forwarded-host": "tranche.example" },
    ];
    for (const headers of ok) {
      const res = await t.request("POST", "/api/notifications/read-all", { as: user, headers });
      expect(res.status, JSON.stringify(headers)).toBeLessThan(300);
    }
    // Reads are not refused, nor callers without a session cookie (an API token's script).
    expect(
      (await t.request("GET", "/api/notifications", { as: user, headers: { origin: "http://localhost:3001" } })).status,
    ).toBe(200);
    const signIn = await t.request("POST", "/api/auth/sign-in", {
      body: { email: "nobody@example.test", password: GOOD },
      headers: from(freshIp(), { origin: "http://localhost:3001" }),
    });
    expect(signIn.status).toBe(401);
  });
});
