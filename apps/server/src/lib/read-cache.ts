// A per-session cache of the read-heavy JSON answers (dashboards, list pages, counts, search, analytics), that never
// serves a figure older than the database. Each answer is stored with the PostgreSQL snapshot taken before it was
// computed; it is served again only while no transaction noted in data_changes (migration 0013: a statement
// trigger on every table those answers read) is invisible to that snapshot, i.e. while nothing was committed, or
// left in flight, after it. The check is one indexed lookup of the transactions newer than the snapshot's xmin, so a
// hit costs about what GET /api/me does, whatever the answer would cost to compute. Every process checks the
// database itself: a change committed through another process invalidates here at once, without a message.
// See ADR 015 for why this and not a cache invalidated by events.

import { sql } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import { LRUCache } from "lru-cache";
import type { AppEnv, Deps } from "../context";
import { type DbOrTx, queryRows } from "../db/client";
import { statusToday } from "../services/projects/status";

/** The GET routes whose answers are cached (their query strings are part of the key). */
const CACHED_PATHS =
  /^\/api\/(dashboard|projects|projects\/counts|milestones|milestones\/counts|users|verifiers|notifications|reports|audit|public-requests|releases|search|analytics|verifications|verifications\/completed)\/?$/;

/** Tables whose writes do not invalidate (migration 0013): no cached answer reads them. */
export const READ_CACHE_UNTRACKED_TABLES = [
  "data_changes",
  "sessions",
  "rate_limits",
  "idempotency_keys",
  "api_tokens",
  "outbox",
  "webhook_deliveries",
  "webhook_attempts",
  "email_digests",
  "known_devices",
  "webauthn_challenges",
] as const;

// An answer lives at most a minute: figures that move with the clock alone (the last 30 days, overdue
// verifications) are at most that old. Notes of changes are kept an hour, far longer than any entry or transaction.
const ENTRY_TTL_MS = 60_000;
const NOTE_RETENTION = sql`interval '1 hour'`;
const PRUNE_EVERY_MS = 5 * 60_000;
const MAX_BYTES = 64 * 1024 * 1024;
const MAX_ENTRY_BYTES = 512 * 1024;

interface Entry {
  /** pg_current_snapshot() taken before the answer was computed. */
  snapshot: string;
  body: string;
}

/** The snapshot to store an answer under; taken before the answer's own queries, so it is never newer than them. */
async function currentSnapshot(db: DbOrTx): Promise<string> {
  const [row] = await queryRows<{ snapshot: string }>(db, sql`select pg_current_snapshot()::text as snapshot`);
  return row.snapshot;
}

/** Whether a transaction that changed tracked data committed after `snapshot`, or was still running then. */
async function changedSince(db: DbOrTx, snapshot: string): Promise<boolean> {
  const [row] = await queryRows<{ changed: boolean }>(
    db,
    sql`select exists (
          select 1 from data_changes
          where xid >= pg_snapshot_xmin(${snapshot}::pg_snapshot)
            and not pg_visible_in_snapshot(xid, ${snapshot}::pg_snapshot)
        ) as changed`,
  );
  return Boolean(row?.changed);
}

export interface ReadCache {
  middleware: MiddlewareHandler<AppEnv>;
  /** Entries held now (tests). */
  size(): number;
}

/**
 * The cache for one app (one process): keyed by session, path and query and today's date, so an answer is only
 * ever served to the session it was computed for. The date is the one project statuses are derived for
 * (services/projects/status.ts): once a due date passes, no answer computed before is served. READ_CACHE=false
 * turns it off.
 */
export function createReadCache(deps: Deps): ReadCache {
  const entries = new LRUCache<string, Entry>({
    maxSize: MAX_BYTES,
    maxEntrySize: MAX_ENTRY_BYTES,
    sizeCalculation: (entry, key) => entry.body.length + key.length + 64,
    ttl: ENTRY_TTL_MS,
  });
  let prunedAt = Date.now();
  const prune = () => {
    prunedAt = Date.now();
    deps.db
      .execute(sql`delete from data_changes where at < now() - ${NOTE_RETENTION}`)
      .catch((err) => deps.logger.warn({ err }, "could not prune data_changes"));
  };

  const middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
    const user = c.get("user");
    if (!deps.env.READ_CACHE || c.req.method !== "GET" || !user || !CACHED_PATHS.test(c.req.path)) return next();
    const url = new URL(c.req.url);
    const key = `${user.id}\n${user.sessionId}\n${statusToday()}\n${url.pathname}${url.search}`;
    // The cache's own queries never fail a request: when one cannot run (a lost connection, say), the answer is
    // computed as if nothing were cached, and not stored.
    const unsure = (err: unknown) => {
      deps.logger.warn({ err, path: c.req.path }, "read cache bypassed: its check could not run");
      return null;
    };
    const hit = entries.get(key);
    if (hit) {
      if ((await changedSince(deps.db, hit.snapshot).catch(unsure)) === false) {
        c.header("Server-Timing", "cache;desc=hit");
        return c.body(hit.body, 200, { "Content-Type": "application/json" });
      }
      entries.delete(key);
    }
    const snapshot = await currentSnapshot(deps.db).catch(unsure);
    await next();
    c.header("Server-Timing", "cache;desc=miss");
    if (snapshot === null || c.res.status !== 200) return;
    if (!c.res.headers.get("Content-Type")?.startsWith("application/json")) return;
    entries.set(key, { snapshot, body: await c.res.clone().text() });
    if (Date.now() - prunedAt > PRUNE_EVERY_MS) prune();
  };
  return { middleware, size: () => entries.size };
}
