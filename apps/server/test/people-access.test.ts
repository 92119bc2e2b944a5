// Sessions (list, sign out one or all others), the sign-in failure limits, and project ownership when roles change.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../src/auth/password";
import { auditEvents, notifications, projectMembers, users } from "../src/db/schema";
import { makeProject } from "./factories";
import { cookieFrom, createTestApp, type TestApp, type TestUser } from "./harness";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SIGNIN_FAILURES_PER_ACCOUNT_IP: 3, SIGNIN_FAILURES_PER_ACCOUNT: 8 });
});
afterAll(() => t.close());

const PASSWORD = "correct horse battery staple 42";
const CHROME_MAC =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const FIREFOX_WIN = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

async function withPassword(user: TestUser) {
  await t.deps.db
    .update(users)
    .set({ passwordHash: await hashPassword(PASSWORD) })
    .where(eq(users.id, user.id));
  return user;
}

const signIn = (email: string, password: string, ip: string, userAgent = CHROME_MAC) =>
  t.request("POST", "/api/auth/sign-in", {
    body: { email, password },
    headers: { "x-forwarded-for": ip, "user-agent": userAgent },
  });

const asCookie = (user: TestUser, cookie: string): TestUser => ({ ...user, cookie });

describe("active sessions", () => {
  it("lists device, IP and last use, signs out one, then all others", async () => {
    const user = await withPassword(await t.user("investor"));
    const laptop = asCookie(user, cookieFrom((await signIn(user.email, PASSWORD, "203.0.113.20")).headers));
    const pc = asCookie(user, cookieFrom((await signIn(user.email, PASSWORD, "203.0.113.21", FIREFOX_WIN)).headers));

    const list = await t.request("GET", "/api/auth/sessions", { as: laptop });
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(3); // the harness's session, and two sign-ins
    const current = list.body.items.find((s: { current: boolean }) => s.current);
    expect(current).toMatchObject({ device: "Chrome on macOS", ip: "203.0.113.20" });
    const firefox = list.body.items.find((s: { device: string }) => s.device === "Firefox on Windows");
    expect(firefox).toMatchObject({ ip: "203.0.113.21", current: false });
    expect(typeof firefox.lastSeenAt).toBe("string");

    // Someone else cannot end it, nor see it.
    const stranger = await t.user("investor");
    expect((await t.request("DELETE", `/api/auth/sessions/${firefox.id}`, { as: stranger })).status).toBe(404);
    expect((await t.request("DELETE", "/api/auth/sessions/not-an-id", { as: laptop })).status).toBe(400);

    expect((await t.request("DELETE", `/api/auth/sessions/${firefox.id}`, { as: laptop })).status).toBe(204);
    expect((await t.request("GET", "/api/me", { as: pc })).status).toBe(401);
    expect((await t.request("GET", "/api/me", { as: user })).status).toBe(200);

    const others = await t.request("POST", "/api/auth/sessions/sign-out-others", { as: laptop });
    expect(others.body).toEqual({ signedOut: 1 });
    expect((await t.request("GET", "/api/me", { as: user })).status).toBe(401);
    expect((await t.request("GET", "/api/me", { as: laptop })).status).toBe(200);
    const audit = await t.deps.db.select().from(auditEvents).where(eq(auditEvents.entityId, user.id));
    expect(audit.map((e) => e.action)).toEqual(
      expect.arrayContaining(["user.session_revoked", "user.other_sessions_revoked"]),
    );

    // Signing out the current session from the list clears its cookie.
    const self = (await t.request("GET", "/api/auth/sessions", { as: laptop })).body.items[0];
    const ended = await t.request("DELETE", `/api/auth/sessions/${self.id}`, { as: laptop });
    expect(ended.headers.get("set-cookie")).toMatch(/tranche_session=;/);
    expect((await t.request("GET", "/api/me", { as: laptop })).status).toBe(401);
  });
});

describe("sign-in failure limits", () => {
  it("blocks an IP after its failures on one account, not the person signing in from elsewhere", async () => {
    const user = await withPassword(await t.user("verifier"));
    for (let i = 0; i < 3; i++) expect((await signIn(user.email, "wrong password", "192.0.2.50")).status).toBe(401);
    const blocked = await signIn(user.email, PASSWORD, "192.0.2.50");
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    // The stranger's failures do not lock the owner of the account out.
    expect((await signIn(user.email, PASSWORD, "198.51.100.60")).status).toBe(200);
  });

  it("stops every IP at the much higher per-account ceiling", async () => {
    const user = await withPassword(await t.user("admin"));
    for (let i = 0; i < 8; i++) await signIn(user.email, "wrong password", `192.0.2.${100 + (i % 4)}`);
    expect((await signIn(user.email, PASSWORD, "198.51.100.61")).status).toBe(429);
    // Another account is not affected.
    const other = await withPassword(await t.user("admin"));
    expect((await signIn(other.email, PASSWORD, "198.51.100.61")).status).toBe(200);
  });

  it("clears an IP's failures when it signs in", async () => {
    const user = await withPassword(await t.user("investor"));
    for (let i = 0; i < 2; i++) await signIn(user.email, "wrong password", "192.0.2.70");
    expect((await signIn(user.email, PASSWORD, "192.0.2.70")).status).toBe(200);
    for (let i = 0; i < 2; i++) await signIn(user.email, "wrong password", "192.0.2.70");
    expect((await signIn(user.email, PASSWORD, "192.0.2.70")).status).toBe(200);
  });
});

describe("ownership and roles", () => {
  it("refuses to change the role of a user who owns projects, with 409 naming them", async () => {
    const admin = await t.user("admin");
    const owner = await t.user("project_owner");
    const a = await makeProject(t, { owner, name: "Harbour Wind" });
    const b = await makeProject(t, { owner, name: "Atlas Water" });
    const res = await t.request("PATCH", `/api/users/${owner.id}`, { as: admin, body: { role: "investor" } });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe(
      `${owner.name} owns projects: Atlas Water, Harbour Wind. Transfer ownership first.`,
    );
    expect(res.body.error.details.projects).toEqual([
      { id: b.id, name: "Atlas Water" },
      { id: a.id, name: "Harbour Wind" },
    ]);
    const [row] = await t.deps.db.select({ role: users.role }).from(users).where(eq(users.id, owner.id));
    expect(row.role).toBe("project_owner");
  });

  it("lets an admin transfer ownership: audited, both owners told, then the role may change", async () => {
    const admin = await t.user("admin");
    const owner = await t.user("project_owner");
    const next = await t.user("project_owner", { name: "Nadia Next" });
    const investor = await t.user("investor");
    const project = await makeProject(t, { owner, investors: [investor], name: "Delta Solar" });

    const notAdmin = await t.request("POST", `/api/projects/${project.id}/owner`, {
      as: owner,
      body: { userId: next.id },
    });
    expect(notAdmin.status).toBe(403);
    const toInvestor = await t.request("POST", `/api/projects/${project.id}/owner`, {
      as: admin,
      body: { userId: investor.id },
    });
    expect(toInvestor.status).toBe(422);
    const badBody = await t.request("POST", `/api/projects/${project.id}/owner`, { as: admin, body: { userId: "x" } });
    expect(badBody.status).toBe(400);
    expect(badBody.body.error.details.userId).toBe("Choose the new owner.");

    const res = await t.request("POST", `/api/projects/${project.id}/owner`, { as: admin, body: { userId: next.id } });
    expect(res.status).toBe(200);
    expect(res.body.owner).toMatchObject({ id: next.id, name: "Nadia Next" });
    const owners = await t.deps.db
      .select({ userId: projectMembers.userId })
      .from(projectMembers)
      .where(and(eq(projectMembers.projectId, project.id), eq(projectMembers.role, "owner")));
    expect(owners).toEqual([{ userId: next.id }]);
    const [event] = await t.deps.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, project.id), eq(auditEvents.action, "project.ownership_transferred")));
    expect(event).toMatchObject({
      actorId: admin.id,
      before: { ownerIds: [owner.id] },
      after: { ownerIds: [next.id] },
    });
    const told = await t.deps.db.select().from(notifications).where(eq(notifications.category, "account"));
    expect(told.find((n) => n.userId === next.id)?.title).toBe("You now own a project");
    expect(told.find((n) => n.userId === owner.id)?.title).toBe("Project ownership transferred");

    expect(
      (await t.request("POST", `/api/projects/${project.id}/owner`, { as: admin, body: { userId: next.id } })).status,
    ).toBe(409);
    const changed = await t.request("PATCH", `/api/users/${owner.id}`, { as: admin, body: { role: "investor" } });
    expect(changed.status).toBe(200);
  });
});
