// The hourly housekeeping: what has ended is deleted, and nothing that is still in use, nor the platform's history.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hit } from "../src/auth/rate-limit";
import { queryRows } from "../src/db/client";
import {
  emailVerifications,
  idempotencyKeys,
  passwordResets,
  pushSubscriptions,
  rateLimits,
  sessions,
  webauthnChallenges,
} from "../src/db/schema";
import { removeExpiredRecords } from "../src/services/housekeeping";
import { createTestApp, type TestApp } from "./harness";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SESSION_IDLE_MINUTES: 60, SESSION_MAX_HOURS: 24 });
});
afterAll(() => t.close());

const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000);

describe("removeExpiredRecords", () => {
  it("deletes sessions past their idle or absolute limit, with their push subscriptions, and keeps live ones", async () => {
    const [idle, old, live] = await Promise.all([t.user("verifier"), t.user("investor"), t.user("project_owner")]);
    const sessionOf = async (userId: string) =>
      (await t.deps.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId)))[0].id;
    const idleSession = await sessionOf(idle.id);
    await t.deps.db
      .update(sessions)
      .set({ lastSeenAt: ago(2) })
      .where(eq(sessions.id, idleSession));
    await t.deps.db
      .update(sessions)
      .set({ createdAt: ago(25) })
      .where(eq(sessions.userId, old.id));
    await t.deps.db.insert(pushSubscriptions).values({
      userId: idle.id,
      sessionId: idleSession,
      endpoint: "https://push.example/abandoned-phone",
      p256dh: "key",
      auth: "auth",
      device: "Chrome on Android",
    });

    const removed = await removeExpiredRecords(t.deps);

    expect(removed.sessions).toBeGreaterThanOrEqual(2);
    for (const gone of [idle, old]) {
      expect(await t.deps.db.select().from(sessions).where(eq(sessions.userId, gone.id))).toEqual([]);
      expect((await t.request("GET", "/api/me", { as: gone })).status).toBe(401);
    }
    expect(await t.deps.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, idle.id))).toEqual([]);
    expect((await t.request("GET", "/api/me", { as: live })).status).toBe(200);
  });

  it("deletes spent rate-limit counters, old idempotency answers, long-expired links and challenges only", async () => {
    const user = await t.user("verifier");
    await hit(t.deps.db, { key: "housekeeping:fresh", max: 5, windowSeconds: 60 });
    await t.deps.db.insert(rateLimits).values({ key: "housekeeping:spent", windowStart: ago(25), count: 3 });
    const answer = { scope: "approve:x#y", status: 200, body: { ok: true } };
    await t.deps.db.insert(idempotencyKeys).values([
      { userId: user.id, key: "recent", ...answer, createdAt: ago(24 * 29) },
      { userId: user.id, key: "old", ...answer, createdAt: ago(24 * 31) },
    ]);
    const link = (tokenHash: string, expiresAt: Date) => ({ userId: user.id, tokenHash, expiresAt });
    await t.deps.db
      .insert(passwordResets)
      .values([link("reset-recent", ago(24 * 29)), link("reset-old", ago(24 * 31))]);
    await t.deps.db
      .insert(emailVerifications)
      .values([link("verify-recent", ago(24 * 29)), link("verify-old", ago(24 * 31))]);
    await t.deps.db.insert(webauthnChallenges).values([
      { challenge: "housekeeping-expired", purpose: "sign_in", expiresAt: ago(1) },
      { challenge: "housekeeping-open", purpose: "sign_in", expiresAt: new Date(Date.now() + 60_000) },
    ]);

    const removed = await removeExpiredRecords(t.deps);

    const keysOf = async (column: string, table: string) =>
      (await queryRows<{ k: string }>(t.deps.db, sql.raw(`select ${column} as k from ${table} order by 1`))).map(
        (r) => r.k,
      );
    expect(await keysOf("key", "rate_limits where key like 'housekeeping:%'")).toEqual(["housekeeping:fresh"]);
    expect(await keysOf("key", `idempotency_keys where user_id = '${user.id}'`)).toEqual(["recent"]);
    expect(await keysOf("token_hash", `password_resets where user_id = '${user.id}'`)).toEqual(["reset-recent"]);
    expect(await keysOf("token_hash", `email_verifications where user_id = '${user.id}'`)).toEqual(["verify-recent"]);
    expect(await keysOf("challenge", "webauthn_challenges where challenge like 'housekeeping-%'")).toEqual([
      "housekeeping-open",
    ]);
    expect(removed).toMatchObject({ rateLimits: 1, idempotencyKeys: 1, links: 2, challenges: 1 });
    // Run again, nothing is left to remove.
    expect(await removeExpiredRecords(t.deps)).toMatchObject({ rateLimits: 0, idempotencyKeys: 0, links: 0 });
  });

  it("refuses a rate limit whose window is longer than what is kept", async () => {
    await expect(hit(t.deps.db, { key: "housekeeping:long", max: 1, windowSeconds: 2 * 86_400 })).rejects.toThrow(
      "at most a day",
    );
  });
});
