// An admin resets the second factor of someone who lost it (authenticator app, recovery codes and passkeys): it is
// all removed, every session of theirs ends, it is audited and they are emailed; they set one up again after
// signing in with their password.
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, emailPreferences, mfaRecoveryCodes, mfaTotp, passkeys, sessions } from "../src/db/schema";
import { outboxTopics } from "../src/services/outbox/topics";
import { createOutboxWorker } from "../src/services/outbox/worker";
import { cookieFrom, createTestApp, givePassword, type TestApp, type TestUser } from "./harness";
import { actionLink, startSmtp, type TestMailbox } from "./smtp";

const PUBLIC_URL = "https://tranche.example.test";

let t: TestApp;
let mail: TestMailbox;
beforeAll(async () => {
  mail = await startSmtp();
  t = await createTestApp({ SMTP_URL: mail.url, PUBLIC_URL });
});
afterAll(async () => {
  await t?.close();
  await mail?.close();
});

const codeAt = (secret: string, ahead: number) =>
  generateHOTP(decodeBase32IgnorePadding(secret), BigInt(Math.floor(Date.now() / 30_000) + ahead), 6);

/** Sets up an authenticator app for `user` through the API (ten recovery codes come with it). */
async function enrollTotp(user: TestUser): Promise<void> {
  const password = await givePassword(t, user);
  const setup = await t.request("POST", "/api/auth/mfa/totp/setup", { as: user, body: { password } });
  expect(setup.status).toBe(200);
  const enabled = await t.request("POST", "/api/auth/mfa/totp/enable", {
    as: user,
    body: { code: codeAt(setup.body.secret, 0), password },
  });
  expect(enabled.status).toBe(200);
}

/** A passkey row as registration leaves it (the ceremony itself is passkeys.test.ts's). */
async function addPasskey(user: TestUser, deviceName = "Phone"): Promise<void> {
  await t.deps.db.insert(passkeys).values({
    userId: user.id,
    credentialId: `credential-${user.id}-${deviceName}`,
    publicKey: "cHVibGljLWtleQ",
    deviceName,
    deviceType: "multiDevice",
  });
}

/** What the person has of a second factor (passkeys not revoked), and how many sessions. */
async function holdings(userId: string) {
  const db = t.deps.db;
  return {
    totp: (await db.select().from(mfaTotp).where(eq(mfaTotp.userId, userId))).length,
    recoveryCodes: (await db.select().from(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId))).length,
    passkeys: (
      await db
        .select()
        .from(passkeys)
        .where(and(eq(passkeys.userId, userId), isNull(passkeys.revokedAt)))
    ).length,
    sessions: (await db.select().from(sessions).where(eq(sessions.userId, userId))).length,
  };
}

const resets = (userId: string) =>
  t.deps.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entityId, userId), eq(auditEvents.action, "user.mfa_reset")));

const reset = (id: string, as: TestUser) => t.request("POST", `/api/users/${id}/mfa/reset`, { as });

const deliver = () => createOutboxWorker(t.deps, outboxTopics(t.deps)).drain();

const listed = async (admin: TestUser, user: TestUser) => {
  const res = await t.request("GET", `/api/users?q=${encodeURIComponent(user.email)}`, { as: admin });
  return res.body.items.find((u: { id: string }) => u.id === user.id);
};

describe("POST /api/users/:id/mfa/reset", () => {
  it("removes the app, recovery codes and passkeys, signs every session out, audits and emails; the list says so", async () => {
    const admin = await t.user("admin", { name: "Ada Admin" });
    const verifier = await t.user("verifier", { name: "Vic Verifier" });
    await enrollTotp(verifier);
    await addPasskey(verifier);
    // Account news by email at once: the reset still sends them one email, its own notice.
    await t.deps.db.insert(emailPreferences).values({ userId: verifier.id, category: "account", mode: "instant" });
    const otherDevice = await t.request("POST", "/api/auth/sign-in", {
      body: { email: verifier.email, password: await givePassword(t, verifier) },
    });
    expect(otherDevice.status).toBe(200);
    expect(await holdings(verifier.id)).toEqual({ totp: 1, recoveryCodes: 10, passkeys: 1, sessions: 2 });
    expect((await listed(admin, verifier)).hasSecondFactor).toBe(true);

    const res = await reset(verifier.id, admin);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      user: { id: verifier.id, name: "Vic Verifier", hasSecondFactor: false },
      removed: { totp: true, recoveryCodes: 10, passkeys: 1 },
      sessionsEnded: 2,
    });
    expect(await holdings(verifier.id)).toEqual({ totp: 0, recoveryCodes: 0, passkeys: 0, sessions: 0 });
    expect((await listed(admin, verifier)).hasSecondFactor).toBe(false);

    // Both of the verifier's sessions have ended; the admin's goes on.
    expect((await t.request("GET", "/api/auth/mfa", { as: verifier })).status).toBe(401);
    const other = { cookie: cookieFrom(otherDevice.headers) } as TestUser;
    expect((await t.request("GET", "/api/auth/mfa", { as: other })).status).toBe(401);
    expect((await t.request("GET", "/api/users", { as: admin })).status).toBe(200);

    const [audit] = await resets(verifier.id);
    expect(audit).toMatchObject({
      actorId: admin.id,
      entityType: "user",
      before: { totp: true, recoveryCodes: 10, passkeys: 1 },
      after: { sessionsEnded: 2 },
    });

    await deliver();
    // One email: the notice below, not a second one for the in-app notification.
    expect(mail.to(verifier.email)).toHaveLength(1);
    const [notice] = mail.to(verifier.email);
    expect(notice.subject).toBe("Your Tranche second factor was reset");
    expect(notice.text).toContain("An administrator reset the second factor");
    expect(notice.text).toContain("contact your administrator");
    expect(actionLink(notice).toString()).toBe(`${PUBLIC_URL}/login`);
  });

  it("asks the person to set one up again after signing in with their password", async () => {
    const admin = await t.user("admin");
    const verifier = await t.user("verifier");
    await enrollTotp(verifier);
    expect((await reset(verifier.id, admin)).status).toBe(200);

    const password = await givePassword(t, verifier);
    const signedIn = await t.request("POST", "/api/auth/sign-in", { body: { email: verifier.email, password } });
    expect(signedIn.status).toBe(200);
    const again = { ...verifier, cookie: cookieFrom(signedIn.headers) };
    // Signed in again, the notification says what happened and leads to Security.
    const inbox = await t.request("GET", "/api/notifications", { as: again });
    expect(inbox.body.items).toContainEqual(
      expect.objectContaining({
        title: "Your second factor was reset",
        category: "account",
        link: "/account#security",
        read: false,
      }),
    );
    const status = await t.request("GET", "/api/auth/mfa", { as: again });
    expect(status.body).toMatchObject({ enrolled: false, totp: false, passkeys: 0, required: true });
    // A protected action leads to set-up, and set-up asks for the password again.
    const refused = await t.request("PATCH", `/api/users/${verifier.id}`, { as: again, body: { role: "investor" } });
    expect(refused.status).toBe(403);
    const noPassword = await t.request("POST", "/api/auth/mfa/totp/setup", { as: again, body: {} });
    expect(noPassword.status).toBe(400);
    expect(noPassword.body.error.details.password).toBe("Enter your password.");
    const setup = await t.request("POST", "/api/auth/mfa/totp/setup", { as: again, body: { password } });
    expect(setup.status).toBe(200);
    const enabled = await t.request("POST", "/api/auth/mfa/totp/enable", {
      as: again,
      body: { code: codeAt(setup.body.secret, 1), password },
    });
    expect(enabled.status).toBe(200);
    expect(enabled.body.recoveryCodes).toHaveLength(10);
  });

  it("refuses a non-admin with 403 and changes nothing", async () => {
    const verifier = await t.user("verifier");
    await enrollTotp(verifier);
    for (const role of ["investor", "project_owner", "verifier"] as const) {
      const res = await reset(verifier.id, await t.user(role));
      expect(res.status, role).toBe(403);
      expect(res.body.error.code).toBe("forbidden");
    }
    expect((await t.request("POST", `/api/users/${verifier.id}/mfa/reset`)).status).toBe(401);
    expect(await holdings(verifier.id)).toEqual({ totp: 1, recoveryCodes: 10, passkeys: 0, sessions: 1 });
    expect(await resets(verifier.id)).toEqual([]);
  });

  it("asks the admin for their own second factor first, like any change to access", async () => {
    const admin = await t.user("admin", { secondFactor: false });
    const verifier = await t.user("verifier");
    await addPasskey(verifier);
    const res = await reset(verifier.id, admin);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: "mfa_required", details: { enrolled: false } });
    expect(await holdings(verifier.id)).toMatchObject({ passkeys: 1, sessions: 1 });
    expect(await resets(verifier.id)).toEqual([]);
  });

  it("refuses an admin's own reset with 409: that is done from their own Account → Security", async () => {
    const admin = await t.user("admin");
    await enrollTotp(admin);
    const res = await reset(admin.id, admin);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe(
      "You cannot reset your own second factor here. Change it under Account → Security.",
    );
    expect(await holdings(admin.id)).toMatchObject({ totp: 1, recoveryCodes: 10 });
  });

  it("answers 409 for someone without a second factor, leaving an unfinished set-up and their sessions", async () => {
    const admin = await t.user("admin");
    const verifier = await t.user("verifier", { name: "Nadia None" });
    // A set-up started but never turned on is not a second factor; a revoked passkey is not one either.
    const password = await givePassword(t, verifier);
    expect((await t.request("POST", "/api/auth/mfa/totp/setup", { as: verifier, body: { password } })).status).toBe(
      200,
    );
    await addPasskey(verifier, "Old laptop");
    await t.deps.db.update(passkeys).set({ revokedAt: new Date() }).where(eq(passkeys.userId, verifier.id));
    expect((await listed(admin, verifier)).hasSecondFactor).toBe(false);

    const res = await reset(verifier.id, admin);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe("Nadia None has no second factor to reset.");
    expect(await holdings(verifier.id)).toEqual({ totp: 1, recoveryCodes: 0, passkeys: 0, sessions: 1 });
    expect(await resets(verifier.id)).toEqual([]);
  });

  it("revokes the passkeys in use, counting only those, and keeps them so they are refused by name", async () => {
    const admin = await t.user("admin");
    const verifier = await t.user("verifier");
    await addPasskey(verifier, "Old laptop");
    await t.deps.db.update(passkeys).set({ revokedAt: new Date() }).where(eq(passkeys.userId, verifier.id));
    await addPasskey(verifier, "Phone");
    const res = await reset(verifier.id, admin);
    expect(res.status).toBe(200);
    expect(res.body.removed).toEqual({ totp: false, recoveryCodes: 0, passkeys: 1 });
    const kept = await t.deps.db.select().from(passkeys).where(eq(passkeys.userId, verifier.id));
    expect(kept.map((p) => [p.deviceName, p.revokedAt !== null]).sort()).toEqual([
      ["Old laptop", true],
      ["Phone", true],
    ]);
  });

  it("answers 404 for an unknown or a malformed id", async () => {
    const admin = await t.user("admin");
    const missing = await reset("00000000-0000-4000-8000-000000000000", admin);
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe("User not found.");
    // As every route with an id in its path (ADR 023): a malformed id names nothing.
    expect((await t.request("POST", "/api/users/nope/mfa/reset", { as: admin })).status).toBe(404);
  });
});
