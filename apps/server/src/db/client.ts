import { createHash } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { RECONNECT_DELAYS_MS } from "@tranche/domain";
import { type ExtractTablesWithRelations, type SQL, sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import { type PgDatabase, type PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import pino from "pino";
import type { Logger } from "../lib/logger";
import * as schema from "./schema";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type DbOrTx = Db | Tx;

export type ListenerStatus = "listening" | "reconnecting";

export interface ListenHandlers {
  /** The payload of each NOTIFY on the channel. */
  onPayload(payload: string): void;
  /**
   * The listening connection was lost ("reconnecting") or is back ("listening"). Notifications sent while it
   * was down are not replayed by PostgreSQL: on "listening" the caller catches up from its own records.
   */
  onStatus?(status: ListenerStatus): void;
}

/** Listens on a channel, reconnecting when the connection drops; returns a function that stops listening. */
export type Listen = (channel: string, handlers: ListenHandlers) => Promise<() => Promise<void>>;

export interface DatabaseOptions {
  /** A PostgreSQL server; without it, embedded PGlite (in dataDir, or in memory). */
  url?: string;
  dataDir?: string;
  /** Embedded only: start from this dump of a data directory (see `Database.dump`) instead of an empty one. */
  pgliteSnapshot?: Blob;
  logger?: Logger;
  /** Delays between attempts to re-establish a lost LISTEN connection; the last one repeats. */
  reconnectDelaysMs?: readonly number[];
  /**
   * PostgreSQL only: keep statements prepared on each connection (default). Off for a pooler that cannot carry
   * prepared statements (PgBouncer before 1.21 in transaction mode): DATABASE_PREPARED_STATEMENTS=false.
   */
  prepare?: boolean;
}

/** How often an otherwise silent LISTEN connection is checked, so a half-open one is noticed. */
const LISTENER_PING_MS = 30_000;

/** Connections open, running something, and the queries waiting for one (metrics). */
export interface PoolStats {
  total: number;
  inUse: number;
  waiting: number;
}

export interface Database {
  db: Db;
  /** The outbox worker's (its own connections on PostgreSQL; the one connection on PGlite). */
  backgroundDb: Db;
  kind: "pglite" | "postgres";
  listen: Listen;
  ping(): Promise<boolean>;
  poolStats(): PoolStats;
  /** Embedded only: the whole data directory as a tarball, to open copies of it quickly. */
  dump?(): Promise<Blob>;
  close(): Promise<void>;
}

// Resolved from this file both in src/db/ (tsx) and in the bundled dist/.
const migrationsFolder = [new URL("../../drizzle", import.meta.url), new URL("../drizzle", import.meta.url)]
  .map((url) => fileURLToPath(url))
  .find((dir) => existsSync(path.join(dir, "meta", "_journal.json"))) as string;
// Any fixed number: serialises migrations when several processes start against one server.
const MIGRATION_LOCK = 727_001;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const logger = options.logger ?? pino({ level: "silent" });
  return options.url
    ? openPostgres(options.url, logger, options.reconnectDelaysMs ?? RECONNECT_DELAYS_MS, options.prepare ?? true)
    : openPglite(options.dataDir, options.pgliteSnapshot);
}

/** The part of pg's (untyped) protocol connection that the client below relies on. */
interface ProtocolConnection {
  stream: { writable: boolean; cork(): void; uncork(): void };
  _send(buffer: Buffer): boolean;
}

/**
 * A connection whose messages for one query leave in one write: a query is five protocol messages (parse, bind,
 * describe, execute, sync) that pg writes one by one, so the socket is corked for the rest of the tick. System
 * calls are dear on small virtual machines: `GET /api/me` served 3,288 → 3,479 a second on 10,000 projects.
 */
class CorkedClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    const connection = (this as unknown as { connection: ProtocolConnection }).connection;
    const send = connection._send.bind(connection);
    let corked = false;
    connection._send = (buffer) => {
      const stream = connection.stream;
      if (!corked && stream.writable) {
        corked = true;
        stream.cork();
        process.nextTick(() => {
          corked = false;
          stream.uncork();
        });
      }
      return send(buffer);
    };
  }
}

/** Connections of the outbox worker's own pool (beside the requests' 10). */
const BACKGROUND_CONNECTIONS = 4;

/** How many statements one connection keeps prepared, and the longest text prepared (bulk loads are not). */
const PREPARED_PER_CONNECTION = 400;
const PREPARED_TEXT_LIMIT = 16_384;
/**
 * A search (ILIKE) is planned with its pattern on every call, never kept prepared: its best plan depends on the
 * pattern ('%a%' matches nearly every title, '%solar farm%' a few), and a generic plan, made without it, once read
 * the trigram index's every entry for each project a member sees (a verifier's milestone search: 3.3–4.6 s, against
 * 3.5 ms planned with the term).
 */
const PLANNED_EACH_CALL = /\bilike\b/i;

/**
 * A connection that keeps each statement it runs with parameters prepared on the server, named by a hash of its
 * text: PostgreSQL then plans it again only when a plan of its own would be cheaper (plan_cache_mode auto), instead
 * of on every call (a search excepted: PLANNED_EACH_CALL). The investor's dashboard statement took 2.7–3.6 ms planned each time and 1.8–2.1 ms prepared
 * (ADR 026). pg itself prepares a named statement once per connection and reuses it; only the name is chosen here.
 */
class PreparingClient extends CorkedClient {
  #prepared = new Set<string>();

  // biome-ignore lint/suspicious/noExplicitAny: pg's query() has a dozen overloads; this one only adds a name.
  override query(config: any, values?: any, callback?: any): any {
    if (
      config !== null &&
      typeof config === "object" &&
      typeof config.text === "string" &&
      config.name === undefined &&
      Array.isArray(values) &&
      values.length > 0 &&
      config.text.length <= PREPARED_TEXT_LIMIT &&
      !PLANNED_EACH_CALL.test(config.text)
    ) {
      const name = `t${createHash("sha1").update(config.text).digest("base64url")}`;
      if (this.#prepared.has(name) || this.#prepared.size < PREPARED_PER_CONNECTION) {
        this.#prepared.add(name);
        return super.query({ ...config, name }, values, callback);
      }
    }
    return super.query(config, values, callback);
  }
}

async function openPostgres(
  url: string,
  logger: Logger,
  reconnectDelaysMs: readonly number[],
  prepare: boolean,
): Promise<Database> {
  const openPool = (name: string, max: number) => {
    // A bounded wait for a connection: while the server is down, requests answer 503 instead of hanging.
    const pool = new pg.Pool({
      connectionString: url,
      max,
      connectionTimeoutMillis: 5000,
      Client: prepare ? PreparingClient : CorkedClient,
    });
    // An idle client dropped by the server is removed by the pool; the next query opens a fresh connection.
    pool.on("error", (err) => logger.warn({ err, pool: name }, "an idle database connection was lost"));
    // A client checked out of the pool (a transaction holds one) has no error listener of the pool's: when its
    // connection is terminated, pg emits "error" on it, which would be an uncaught exception and end the process.
    // The transaction's own query fails with the same error and answers 503; the pool drops the broken client
    // when it is released.
    pool.on("connect", (client) =>
      client.on("error", (err) => logger.debug({ err, pool: name }, "a database connection in use was lost")),
    );
    return pool;
  };
  const pool = openPool("queries", 10);
  const db = drizzleNodePg(pool, { schema }) as unknown as Db;
  // The outbox worker's own connections: a release instruction on its way to the custodian does not wait for a
  // connection behind the requests' transactions (ADR 026).
  const backgroundPool = openPool("background", BACKGROUND_CONNECTIONS);
  const backgroundDb = drizzleNodePg(backgroundPool, { schema }) as unknown as Db;

  const lockClient = await pool.connect();
  try {
    await lockClient.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await migrateNodePg(drizzleNodePg(lockClient, { schema }), { migrationsFolder });
  } finally {
    await lockClient.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
    lockClient.release();
  }

  const stoppers = new Set<() => Promise<void>>();
  return {
    db,
    backgroundDb,
    kind: "postgres",
    async listen(channel, handlers) {
      const stop = await listenWithReconnect(url, channel, handlers, logger, reconnectDelaysMs);
      stoppers.add(stop);
      return async () => {
        stoppers.delete(stop);
        await stop();
      };
    },
    ping: () => ping(db),
    poolStats: () => ({ total: pool.totalCount, inUse: pool.totalCount - pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      await Promise.all([...stoppers].map((stop) => stop()));
      await Promise.all([pool.end(), backgroundPool.end()]);
    },
  };
}

async function openPglite(dataDir?: string, snapshot?: Blob): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // pg_trgm backs the lists' search (migration 0007 creates the extension and its indexes).
  const client = await PGlite.create(dataDir ?? "memory://", {
    extensions: { pg_trgm },
    ...(snapshot ? { loadDataDir: snapshot } : {}),
  });
  const busy = countCalls(client, ["query", "exec", "transaction"]);
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder });
  let closed = false;
  return {
    db,
    backgroundDb: db,
    kind: "pglite",
    async listen(channel, handlers) {
      // In-process: the connection cannot drop, so the status never changes.
      const unsubscribe = await client.listen(channel, handlers.onPayload);
      return async () => {
        if (!closed) await unsubscribe();
      };
    },
    ping: () => ping(db),
    // One connection: the call running holds it, the others queue behind it.
    poolStats: () => ({ total: 1, inUse: Math.min(busy.inFlight, 1), waiting: Math.max(busy.inFlight - 1, 0) }),
    dump: () => client.dumpDataDir("none"),
    async close() {
      closed = true;
      await client.close();
    },
  };
}

/** Counts the calls of these async methods of `target` in flight (the embedded database's queue, for metrics). */
function countCalls<T extends object>(target: T, methods: (keyof T & string)[]): { inFlight: number } {
  const counter = { inFlight: 0 };
  for (const name of methods) {
    const original = target[name] as unknown as (...args: unknown[]) => Promise<unknown>;
    Object.defineProperty(target, name, {
      value: async (...args: unknown[]) => {
        counter.inFlight++;
        try {
          return await original.apply(target, args);
        } finally {
          counter.inFlight--;
        }
      },
    });
  }
  return counter;
}

/**
 * One dedicated connection LISTENing on a channel. When it errors or ends, the loss is logged, the status
 * turns "reconnecting", and new connections are tried after each delay in turn (the last repeats) until one
 * LISTENs again; then the recovery is logged and the status turns "listening". The first connection must
 * succeed: a server that cannot listen at start-up should not start.
 */
async function listenWithReconnect(
  url: string,
  channel: string,
  handlers: ListenHandlers,
  logger: Logger,
  delaysMs: readonly number[],
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let pingTimer: ReturnType<typeof setInterval> | undefined;
  let attempt = 0;
  let lostAt = 0;
  const log = logger.child({ listener: channel });

  const connect = async () => {
    const next = new pg.Client({ connectionString: url, keepAlive: true, connectionTimeoutMillis: 5000 });
    let lost = false;
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      clearInterval(pingTimer);
      next.removeAllListeners("notification");
      next.end().catch(() => {});
      if (stopped) return;
      lostAt = Date.now();
      log.warn({ err }, "realtime listener lost its database connection; reconnecting");
      handlers.onStatus?.("reconnecting");
      scheduleRetry();
    };
    next.on("error", onLost);
    next.on("end", () => onLost());
    next.on("notification", (message) => {
      if (message.channel === channel && message.payload) handlers.onPayload(message.payload);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (err) {
      lost = true;
      next.removeAllListeners();
      next.on("error", () => {});
      next.end().catch(() => {});
      throw err;
    }
    client = next;
    pingTimer = setInterval(() => {
      next.query("select 1").catch((err: Error) => onLost(err));
    }, LISTENER_PING_MS);
    pingTimer.unref();
  };

  const scheduleRetry = () => {
    const delay = delaysMs[Math.min(attempt, delaysMs.length - 1)] ?? 10_000;
    attempt++;
    retryTimer = setTimeout(async () => {
      if (stopped) return;
      try {
        await connect();
      } catch (err) {
        log.warn(
          { err, attempt, nextDelayMs: delaysMs[Math.min(attempt, delaysMs.length - 1)] },
          "realtime listener reconnect failed",
        );
        if (!stopped) scheduleRetry();
        return;
      }
      log.info({ attempts: attempt, downMs: Date.now() - lostAt }, "realtime listener reconnected");
      attempt = 0;
      handlers.onStatus?.("listening");
    }, delay);
    retryTimer.unref();
  };

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retryTimer);
    clearInterval(pingTimer);
    await client?.end().catch(() => {});
  };
}

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

/** Rows of a raw `db.execute(sql…)`: both drivers answer `{ rows }`. */
export async function queryRows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

type Reads = readonly (() => Promise<unknown>)[];

/**
 * Independent reads: at once on the pool, each on a connection of its own (the answer waits for the slowest, not for
 * the sum), and one after another in a transaction, which has a single connection.
 */
export async function readAll<T extends Reads>(
  db: DbOrTx,
  reads: T,
): Promise<{ [K in keyof T]: Awaited<ReturnType<T[K]>> }> {
  type Results = { [K in keyof T]: Awaited<ReturnType<T[K]>> };
  if (!(db instanceof PgTransaction)) return (await Promise.all(reads.map((read) => read()))) as Results;
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results as Results;
}
