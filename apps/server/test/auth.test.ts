import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notifications, sessions, users } from "../src/db/schema";
import { cookieFrom, createTestApp, type TestApp } from "./harness";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SIGNUP_LIMIT_PER_IP: 30, SESSION_IDLE_MINUTES: 30, SIGNIN_FAILURES_PER_ACCOUNT: 20 });
});
afterAll(() => t.close());

const GOOD = "copper lantern orbit 42";
let n = 0;
const fresh = () => `person${++n}.${Date.now()}@example.test`;

async function signUpAndIn(email = fresh(), password = GOOD) {
  const up = await t.request("POST", "/api/auth/sign-up", { body: { name: "Dana Fields", email, password } });
  expect(up.status).toBe(201);
  const res = await t.request("POST", "/api/auth/sign-in", { body: { email, password } });
  expect(res.status).toBe(200);
  return { email, cookie: cookieFrom(res.headers), res };
}

describe("health", () => {
  it("reports the database as reachable", async () => {
    const res = await t.request("GET", "/api/health");
    expect(res.status).toBe(200);
    expect(res.body.database.reachable).toBe(true);
  });
});

describe("sign-up", () => {
  it("refuses a common password with 422 weak_password and reasons", async () => {
    const res = await t.request("POST", "/api/auth/sign-up", {
      body: { name: "Weak", email: fresh(), password: "password1234" },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("weak_password");
    expect(res.body.error.details.reasons.length).toBeGreaterThan(0);
  });

  it("refuses short and overlong passwords with field messages", async () => {
    const short = await t.request("POST", "/api/auth/sign-up", {
      body: { name: "S", email: fresh(), password: "short" },
    });
    expect(short.status).toBe(400);
    expect(short.body.error.details.password).toBe("Password must be at least 12 characters.");
    const long = await t.request("POST", "/api/auth/sign-up", {
      body: { name: "L", email: fresh(), password: "x".repeat(129) },
    });
    expect(long.status).toBe(400);
    expect(long.body.error.details.password).toBe("Password must be at most 128 characters.");
  });

  it("creates a project_owner with a welcome notification; the same email again gets the same answer and no account", async () => {
    const { cookie, email } = await signUpAndIn();
    const me = await t.request("GET", "/api/me", { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      email,
      name: "Dana Fields",
      role: "project_owner",
      organization: null,
      avatar: null,
    });
    const welcome = await t.deps.db.select().from(notifications).where(sql`${notifications.userId} = ${me.body.id}`);
    expect(welcome.map((w) => w.category)).toEqual(["welcome"]);
    // Sign-up does not say the address is taken (sign-in and reset do not either): 201 with an id, no session.
    const again = await t.request("POST", "/api/auth/sign-up", { body: { name: "Dup", email, password: GOOD } });
    expect(again.status).toBe(201);
    expect(Object.keys(again.body)).toEqual(["id"]);
    expect(again.body.id).not.toBe(me.body.id);
    expect(again.headers.get("set-cookie")).toBeNull();
    const [{ n }] = await t.deps.db.select({ n: sql<number>`count(*)::int` }).from(users).where(eq(users.email, email));
    expect(n).toBe(1);
  });
});

describe("sessions", () => {
  it("sets an httpOnly SameSite cookie and issues a new session id on every sign-in", async () => {
    const first = await signUpAndIn();
    const setCookie = first.res.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    const second = await t.request("POST", "/api/auth/sign-in", { body: { email: first.email, password: GOOD } });
    expect(cookieFrom(second.headers)).not.toBe(first.cookie);
  });

  it("rejects a wrong password without saying which part was wrong", async () => {
    const { email } = await signUpAndIn();
    const res = await t.request("POST", "/api/auth/sign-in", { body: { email, password: "not the password" } });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe("Invalid email or password.");
    const unknown = await t.request("POST", "/api/auth/sign-in", {
      body: { email: fresh(), password: "whatever it is" },
    });
    expect(unknown.body.error.message).toBe("Invalid email or password.");
  });

  it("sign-out invalidates the session on the server", async () => {
    const { cookie } = await signUpAndIn();
    expect((await t.request("POST", "/api/auth/sign-out", { headers: { cookie } })).status).toBe(204);
    expect((await t.request("GET", "/api/me", { headers: { cookie } })).status).toBe(401);
  });

  it("ends a session after the idle time", async () => {
    const { cookie } = await signUpAndIn();
    await t.deps.db.update(sessions).set({ lastSeenAt: new Date(Date.now() - 31 * 60_000) });
    expect((await t.request("GET", "/api/me", { headers: { cookie } })).status).toBe(401);
  });

  it("ends a session after its absolute lifetime even when in use", async () => {
    const { cookie } = await signUpAndIn();
    await t.deps.db.update(sessions).set({ createdAt: new Date(Date.now() - 169 * 3_600_000) });
    expect((await t.request("GET", "/api/me", { headers: { cookie } })).status).toBe(401);
  });

  it("changing the password ends the user's other sessions", async () => {
    const a = await signUpAndIn();
    const b = await t.request("POST", "/api/auth/sign-in", { body: { email: a.email, password: GOOD } });
    const other = cookieFrom(b.headers);
    const change = await t.request("POST", "/api/auth/change-password", {
      headers: { cookie: a.cookie },
      body: { currentPassword: GOOD, newPassword: "violet harbour engine 77" },
    });
    expect(change.status).toBe(204);
    expect((await t.request("GET", "/api/me", { headers: { cookie: a.cookie } })).status).toBe(200);
    expect((await t.request("GET", "/api/me", { headers: { cookie: other } })).status).toBe(401);
  });
});

describe("guessing the password through a session", () => {
  it("counts a wrong current password as a failed sign-in: past the limit nothing is checked, the right one neither", async () => {
    const a = await signUpAndIn();
    const limit = t.deps.env.SIGNIN_FAILURES_PER_ACCOUNT_IP;
    for (let i = 0; i < limit; i++) {
      const guess = await t.request("POST", "/api/auth/change-password", {
        headers: { cookie: a.cookie },
        body: { currentPassword: `guess number ${i}`, newPassword: "violet harbour engine 77" },
      });
      expect(guess.status).toBe(400);
    }
    const right = await t.request("POST", "/api/auth/change-password", {
      headers: { cookie: a.cookie },
      body: { currentPassword: GOOD, newPassword: "violet harbour engine 77" },
    });
    expect(right.status).toBe(429);
    // The same counters as signing in: the guesses made through the session count there too.
    const signIn = await t.request("POST", "/api/auth/sign-in", { body: { email: a.email, password: GOOD } });
    expect(signIn.status).toBe(429);
  });
});

describe("rate limits", () => {
  it("answers 429 with Retry-After after 30 sign-ups from one IP in 5 minutes", async () => {
    const headers = { "x-forwarded-for": "203.0.113.99" };
    for (let i = 0; i < 30; i++) {
      const res = await t.request("POST", "/api/auth/sign-up", {
        headers,
        body: { name: "R", email: fresh(), password: "short" },
      });
      expect(res.status).toBe(400);
    }
    const over = await t.request("POST", "/api/auth/sign-up", {
      headers,
      body: { name: "R", email: fresh(), password: GOOD },
    });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    const elsewhere = await t.request("POST", "/api/auth/sign-up", {
      headers: { "x-forwarded-for": "203.0.113.100" },
      body: { name: "R", email: fresh(), password: "short" },
    });
    expect(elsewhere.status).toBe(400);
  });

  it("stops failed sign-ins to one account across IPs at the per-account ceiling", async () => {
    const email = fresh();
    let last = 0;
    for (let i = 0; i < 21; i++) {
      const res = await t.request("POST", "/api/auth/sign-in", {
        headers: { "x-forwarded-for": `192.0.2.${i}` },
        body: { email, password: "wrong password" },
      });
      last = res.status;
    }
    expect(last).toBe(429);
  });
});

describe("error contract", () => {
  it("answers bad input with 4xx and the error body, never 5xx", async () => {
    const cases = [
      { raw: "{not json", type: "application/json", status: 400 },
      { raw: "[]", type: "application/json", status: 400 },
      { raw: JSON.stringify({ email: 5, password: true }), type: "application/json", status: 400 },
      { raw: JSON.stringify({ email: "a@b.co", password: "x", admin: true }), type: "application/json", status: 400 },
      { raw: "email=a", type: "application/x-www-form-urlencoded", status: 415 },
      {
        raw: JSON.stringify({ email: "a@b.co", password: "x".repeat(300_000) }),
        type: "application/json",
        status: 413,
      },
    ];
    for (const c of cases) {
      const res = await t.request("POST", "/api/auth/sign-in", { raw: c.raw, headers: { "content-type": c.type } });
      expect(res.status, c.raw.slice(0, 30)).toBe(c.status);
      expect(typeof res.body.error.code).toBe("string");
      expect(typeof res.body.error.message).toBe("string");
    }
  });

  it("names unknown fields", async () => {
    const res = await t.request("POST", "/api/auth/sign-in", {
      body: { email: "a@b.co", password: "x", role: "admin" },
    });
    expect(res.body.error.details.role).toBe("Unknown field.");
  });

  it("answers unknown endpoints and unauthenticated calls with the contract", async () => {
    const missing = await t.request("GET", "/api/nothing-here");
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("not_found");
    const me = await t.request("GET", "/api/me");
    expect(me.status).toBe(401);
    expect(me.body.error.code).toBe("unauthenticated");
  });

  it("sends security headers", async () => {
    const res = await t.request("GET", "/api/health");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });
});
