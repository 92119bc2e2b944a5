// A person's own signed-in sessions: listed with device, IP and last use; signed out one by one or all others.
import { createHash } from "node:crypto";
import type { SessionDto } from "@tranche/domain";
import Bowser from "bowser";
import { and, desc, eq, ne } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { sessions } from "../../db/schema";
import { notFound } from "../../errors";
import { appendAudit } from "../audit/append";

/**
 * The id shown to the browser: derived from the stored id (itself a hash of the cookie), so the list never
 * carries what the database keys sessions by.
 */
const publicId = (storedId: string) => createHash("sha256").update(`session:${storedId}`).digest("hex").slice(0, 32);

export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name;
  const os = parsed.os.name;
  if (browser && os) return `${browser} on ${os}`;
  // Bowser names what it cannot read as "": a client it does not know (a script) is an unknown device.
  return browser || os || "Unknown device";
}

async function rowsOf(ctx: ServiceContext) {
  return ctx.db
    .select({
      id: sessions.id,
      ip: sessions.ip,
      userAgent: sessions.userAgent,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(eq(sessions.userId, ctx.actor.id))
    .orderBy(desc(sessions.lastSeenAt));
}

export async function listSessions(ctx: ServiceContext): Promise<SessionDto[]> {
  const rows = await rowsOf(ctx);
  return rows.map((row) => ({
    id: publicId(row.id),
    device: describeDevice(row.userAgent),
    ip: row.ip,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    current: row.id === ctx.actor.sessionId,
  }));
}

/** Signs out one of the caller's sessions (404 for anyone else's); returns whether it was the current one. */
export async function revokeSession(ctx: ServiceContext, id: string): Promise<{ current: boolean }> {
  const target = (await rowsOf(ctx)).find((row) => publicId(row.id) === id);
  if (!target) throw notFound("Session");
  await ctx.db.transaction(async (tx) => {
    await tx.delete(sessions).where(and(eq(sessions.id, target.id), eq(sessions.userId, ctx.actor.id)));
    await appendAudit(tx, {
      actorId: ctx.actor.id,
      action: "user.session_revoked",
      entityType: "user",
      entityId: ctx.actor.id,
      before: { device: describeDevice(target.userAgent), ip: target.ip },
    });
  });
  return { current: target.id === ctx.actor.sessionId };
}

/** Signs out every session of the caller but this one. */
export async function revokeOtherSessions(ctx: ServiceContext): Promise<{ signedOut: number }> {
  return ctx.db.transaction(async (tx) => {
    const ended = await tx
      .delete(sessions)
      .where(and(eq(sessions.userId, ctx.actor.id), ne(sessions.id, ctx.actor.sessionId)))
      .returning({ id: sessions.id });
    if (ended.length > 0) {
      await appendAudit(tx, {
        actorId: ctx.actor.id,
        action: "user.other_sessions_revoked",
        entityType: "user",
        entityId: ctx.actor.id,
        after: { signedOut: ended.length },
      });
    }
    return { signedOut: ended.length };
  });
}
