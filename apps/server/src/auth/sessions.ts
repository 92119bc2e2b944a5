import { createHash, randomBytes } from "node:crypto";
import type { Role } from "@tranche/domain";
import { and, eq, ne, sql } from "drizzle-orm";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppEnv, SessionUser } from "../context";
import type { DbOrTx } from "../db/client";
import { sessions, users } from "../db/schema";
import type { Env } from "../env";

/** Who signed in, as a session carries them (without the session's own fields). */
export type SignedInUser = Omit<SessionUser, "sessionId" | "mfaVerifiedAt">;

export function signedInUser(row: {
  id: string;
  name: string;
  email: string;
  role: string;
  organization: string | null;
  avatarUrl: string | null;
  emailVerifiedAt: Date | null;
}): SignedInUser {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role as Role,
    organization: row.organization,
    avatarUrl: row.avatarUrl,
    emailVerifiedAt: row.emailVerifiedAt,
  };
}

export function cookieName(env: Env): string {
  // The __Host- prefix pins the cookie to this host, path / and HTTPS.
  return env.PUBLIC_URL.startsWith("https://") ? "__Host-tranche_session" : "tranche_session";
}

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** A fresh random session on every sign-in; only its hash is stored. */
export async function createSession(
  db: DbOrTx,
  userId: string,
  meta: { ip?: string | null; userAgent?: string | null; secondFactorPassed?: boolean },
): Promise<{ token: string; id: string }> {
  const token = randomBytes(32).toString("base64url");
  const id = hashToken(token);
  await db.insert(sessions).values({
    id,
    userId,
    ip: meta.ip ?? null,
    userAgent: meta.userAgent?.slice(0, 300) ?? null,
    mfaVerifiedAt: meta.secondFactorPassed ? new Date() : null,
  });
  return { token, id };
}

export function setSessionCookie(c: Context<AppEnv>, token: string, env: Env): void {
  setCookie(c, cookieName(env), token, {
    httpOnly: true,
    sameSite: "Lax",
    secure: env.PUBLIC_URL.startsWith("https://"),
    path: "/",
    maxAge: env.SESSION_MAX_HOURS * 3600,
  });
}

export function clearSessionCookie(c: Context<AppEnv>, env: Env): void {
  deleteCookie(c, cookieName(env), { path: "/", secure: env.PUBLIC_URL.startsWith("https://") });
}

// last_seen_at is written at most this often, so reads stay reads.
const TOUCH_EVERY_MS = 60_000;

/**
 * The user behind a session cookie, or null. A session ends after SESSION_IDLE_MINUTES without use
 * and SESSION_MAX_HOURS after sign-in, whichever comes first; an ended session is deleted.
 */
export async function resolveSession(db: DbOrTx, token: string | undefined, env: Env): Promise<SessionUser | null> {
  if (!token || token.length > 100) return null;
  const id = hashToken(token);
  const [row] = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      role: users.role,
      organization: users.organization,
      avatarUrl: users.avatarUrl,
      emailVerifiedAt: users.emailVerifiedAt,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      mfaVerifiedAt: sessions.mfaVerifiedAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, id))
    .limit(1);
  if (!row) return null;
  const now = Date.now();
  if (sessionEndsAt(row, env) < now) {
    await db.delete(sessions).where(eq(sessions.id, id));
    return null;
  }
  if (now - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await db.update(sessions).set({ lastSeenAt: sql`now()` }).where(eq(sessions.id, id));
  }
  return { ...signedInUser(row), sessionId: id, mfaVerifiedAt: row.mfaVerifiedAt };
}

/** When a session ends unless it is used again: its idle limit or its absolute limit, whichever comes first. */
function sessionEndsAt(row: { createdAt: Date; lastSeenAt: Date }, env: Env): number {
  return Math.min(
    row.lastSeenAt.getTime() + env.SESSION_IDLE_MINUTES * 60_000,
    row.createdAt.getTime() + env.SESSION_MAX_HOURS * 3_600_000,
  );
}

/**
 * When the session will end as it stands now (ms since the epoch), or null when it has ended: for what outlives a
 * request, such as an event stream, to end with its session although nothing uses the session meanwhile.
 */
export async function sessionEnd(db: DbOrTx, sessionId: string, env: Env): Promise<number | null> {
  const [row] = await db
    .select({ createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .where(eq(sessions.id, sessionId))
    .limit(1);
  if (!row) return null;
  const endsAt = sessionEndsAt(row, env);
  return endsAt < Date.now() ? null : endsAt;
}

export function sessionToken(c: Context<AppEnv>, env: Env): string | undefined {
  return getCookie(c, cookieName(env));
}

export async function deleteSession(db: DbOrTx, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

export async function deleteOtherSessions(db: DbOrTx, userId: string, keepSessionId: string): Promise<void> {
  await db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)));
}
