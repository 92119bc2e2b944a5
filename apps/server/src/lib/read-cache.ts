// A per-session cache of the read-heavy JSON answers (dashboards, list pages, counts, search, analytics), that never
// serves a figure older than the database. Each answer is stored with the PostgreSQL snapshot taken before it was
// computed; it is served again only while no transaction noted in data_changes (a statement trigger on every table
// those answers read) that could touch it is invisible to that snapshot, i.e. while nothing it could have read was
// committed, or left in flight, after it. Each note names what changed (migration 0020): a project, a person,
// people's shown names, or only what platform-wide answers read. An answer confined to what its user may see (every
// answer but an admin's, and a few directories) is checked against its user, their projects, and people's names
// when it shows them; a platform-wide answer against every note. A check that finds nothing moves the answer's
// snapshot up to its own, so the next check reads only what was noted since. Every process checks the database
// itself: a change committed through another process invalidates here at once, without a message. Requests that
// miss while the same answer is being computed wait for it instead of computing it again, after the same check.
// See ADR 015 for why this and not a cache invalidated by events, and ADR 018 for the scopes.

import { sql } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import { LRUCache } from "lru-cache";
import type { AppEnv, Deps } from "../context";
import { type DbOrTx, queryRows } from "../db/client";
import { statusToday } from "../services/projects/status";

/** The GET routes whose answers are cached (their query strings are part of the key). */
const CACHED_PATHS =
  /^\/api\/(dashboard|projects|projects\/counts|milestones|milestones\/counts|users|verifiers|notifications|reports|audit|public-requests|releases|search|analytics|verifications|verifications\/pending|verifications\/completed)\/?$/;

/** Tables whose writes do not invalidate (migrations 0013, 0020): no cached answer reads them. */
export const READ_CACHE_UNTRACKED_TABLES = [
  "data_changes",
  "data_change_scopes",
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

/**
 * What an answer may have read: anything (platform-wide), or only what its user may see — their own rows, their
 * projects' rows, and (`people`) the shown names of others.
 */
type Reads = { kind: "platform" } | { kind: "personal"; userId: string; people: boolean };

/** A non-admin's answers that read what every user may see (the verifier directory), or beyond their projects
 * (a verifier's queue lists every milestone they decided, on any project). */
const PLATFORM_PATHS = /^\/api\/(verifiers|users|public-requests|verifications|verifications\/completed)\/?$/;
/** A non-admin's answers that show no other person's name, email, organization or picture. */
const NAMELESS_PATHS =
  /^\/api\/(dashboard|projects|projects\/counts|milestones\/counts|notifications|verifications\/pending)\/?$/;

function readsOf(user: { id: string; role: string }, path: string): Reads {
  if (user.role === "admin" || PLATFORM_PATHS.test(path)) return { kind: "platform" };
  return { kind: "personal", userId: user.id, people: !NAMELESS_PATHS.test(path) };
}

interface Entry {
  /** pg_current_snapshot() taken before the answer was computed, or by the last check that found nothing. */
  snapshot: string;
  reads: Reads;
  body: string;
}

/** An answer being computed now, which requests for the same key may wait for. */
interface Computing {
  /** Its snapshot (null: it could not be taken, and nobody may share the answer). */
  snapshot: Promise<string | null>;
  reads: Reads;
  /** Its body once computed (null: not an answer to keep). */
  body: Promise<string | null>;
}

/** The snapshot to store an answer under; taken before the answer's own queries, so it is never newer than them. */
async function currentSnapshot(db: DbOrTx): Promise<string> {
  const [row] = await queryRows<{ snapshot: string }>(db, sql`select pg_current_snapshot()::text as snapshot`);
  return row.snapshot;
}

/**
 * Whether a transaction that changed what `reads` covers committed after `snapshot`, or was still running then;
 * and the snapshot of this check itself, which the answer may take as its own when nothing changed.
 */
async function changedSince(db: DbOrTx, snapshot: string, reads: Reads): Promise<{ changed: boolean; now: string }> {
  const relevant =
    reads.kind === "platform"
      ? sql``
      : sql`and (d.scope in ('*', ${`u:${reads.userId}`}, ${reads.people ? "n" : "*"})
                 or (left(d.scope, 2) = 'p:' and exists (
                       select 1 from project_members pm
                       where pm.user_id = ${reads.userId} and pm.project_id = substr(d.scope, 3)::uuid)))`;
  // The newest relevant note, if any, read backwards along the primary key from its top: a prepared statement's
  // generic plan cannot know how few notes are past the snapshot, and for a plain exists() it chose to read the
  // whole table (2.6 ms a check at 34,000 notes, against 0.002 ms this way).
  const [row] = await queryRows<{ changed: boolean; now: string }>(
    db,
    sql`select pg_current_snapshot()::text as now, (
          select d.xid from data_changes d
          where d.xid >= pg_snapshot_xmin(${snapshot}::pg_snapshot)
            and not pg_visible_in_snapshot(d.xid, ${snapshot}::pg_snapshot)
            ${relevant}
          order by d.xid desc
          limit 1
        ) is not null as changed`,
  );
  return { changed: Boolean(row?.changed), now: row.now };
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

  const computing = new Map<string, Computing>();

  const middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
    const user = c.get("user");
    if (!deps.env.READ_CACHE || c.req.method !== "GET" || !user || !CACHED_PATHS.test(c.req.path)) return next();
    const url = new URL(c.req.url);
    const key = `${user.id}\n${user.sessionId}\n${statusToday()}\n${url.pathname}${url.search}`;
    const reads = readsOf(user, url.pathname);
    // The cache's own queries never fail a request: when one cannot run (a lost connection, say), the answer is
    // computed as if nothing were cached, and not stored.
    const unsure = (err: unknown) => {
      deps.logger.warn({ err, path: c.req.path }, "read cache bypassed: its check could not run");
      deps.metrics.readCache("bypass");
      return null;
    };
    const served = (body: string) => {
      deps.metrics.readCache("hit");
      c.header("Server-Timing", "cache;desc=hit");
      return c.body(body, 200, { "Content-Type": "application/json" });
    };
    const hit = entries.get(key);
    if (hit) {
      const check = await changedSince(deps.db, hit.snapshot, hit.reads).catch(unsure);
      if (check && !check.changed) {
        hit.snapshot = check.now;
        return served(hit.body);
      }
      entries.delete(key);
    }
    // The same answer is being computed from a snapshot that nothing relevant has moved past: it is as fresh as
    // one computed now.
    const running = computing.get(key);
    if (running) {
      const from = await running.snapshot;
      const check = from === null ? null : await changedSince(deps.db, from, running.reads).catch(unsure);
      const body = check && !check.changed ? await running.body : null;
      if (body !== null) return served(body);
    }
    // Registered before its first await, so requests that follow find it.
    const snapshot = currentSnapshot(deps.db).catch(unsure);
    let finish: (body: string | null) => void = () => {};
    const mine: Computing | null = running
      ? null
      : { snapshot, reads, body: new Promise<string | null>((resolve) => (finish = resolve)) };
    if (mine) computing.set(key, mine);
    let stored: string | null = null;
    try {
      // Taken before the answer's own queries start, so it is never newer than what they read.
      const taken = await snapshot;
      await next();
      deps.metrics.readCache("miss");
      c.header("Server-Timing", "cache;desc=miss");
      if (taken === null || c.res.status !== 200) return;
      if (!c.res.headers.get("Content-Type")?.startsWith("application/json")) return;
      stored = await c.res.clone().text();
      entries.set(key, { snapshot: taken, reads, body: stored });
      if (Date.now() - prunedAt > PRUNE_EVERY_MS) prune();
    } finally {
      if (mine && computing.get(key) === mine) computing.delete(key);
      finish(stored);
    }
  };
  return { middleware, size: () => entries.size };
}
