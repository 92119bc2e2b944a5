// Known devices (ADR 014): a browser that has signed in to an account carries a long-lived random cookie, and the
// account remembers its SHA-256. Limits that a stranger could otherwise spend for the account's owner (the
// account-wide ceiling of wrong passwords, the address's reset emails) are counted apart for a known device.
import { createHash, randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../context";
import type { DbOrTx } from "../db/client";
import { knownDevices, users } from "../db/schema";
import type { Env } from "../env";

const DEVICE_DAYS = 400;

function deviceCookieName(env: Env): string {
  return env.PUBLIC_URL.startsWith("https://") ? "__Host-tranche_device" : "tranche_device";
}

const hashDevice = (token: string) => createHash("sha256").update(token).digest("hex");

/** The hash of this browser's device cookie, or null when it sent none (or a malformed one). */
export function deviceHash(c: Context<AppEnv>): string | null {
  const token = getCookie(c, deviceCookieName(c.get("deps").env));
  return token && /^[\w-]{43}$/.test(token) ? hashDevice(token) : null;
}

/**
 * The device's key for limits when this browser has signed in as the account with this email before, else null.
 * The lookup runs whenever a device cookie is sent, whether or not the address has an account.
 */
export async function knownDeviceFor(db: DbOrTx, device: string | null, email: string): Promise<string | null> {
  if (!device) return null;
  const [row] = await db
    .select({ userId: knownDevices.userId })
    .from(knownDevices)
    .innerJoin(users, eq(users.id, knownDevices.userId))
    .where(and(eq(knownDevices.deviceHash, device), eq(users.email, email)))
    .limit(1);
  // The limit key carries part of the hash only: enough to tell devices apart, never the cookie itself.
  return row ? device.slice(0, 32) : null;
}

/** After a successful sign-in: this browser is a known device of the account from now on (a cookie if it had none). */
export async function rememberDevice(c: Context<AppEnv>, userId: string): Promise<void> {
  const { db, env } = c.get("deps");
  let device = deviceHash(c);
  if (!device) {
    const token = randomBytes(32).toString("base64url");
    device = hashDevice(token);
    setCookie(c, deviceCookieName(env), token, {
      httpOnly: true,
      sameSite: "Lax",
      secure: env.PUBLIC_URL.startsWith("https://"),
      path: "/",
      maxAge: DEVICE_DAYS * 86_400,
    });
  }
  await db
    .insert(knownDevices)
    .values({ deviceHash: device, userId })
    .onConflictDoUpdate({ target: [knownDevices.deviceHash, knownDevices.userId], set: { lastSeenAt: sql`now()` } });
}
