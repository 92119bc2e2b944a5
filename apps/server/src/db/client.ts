import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { type ExtractTablesWithRelations, type SQL, sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import * as schema from "./schema";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type DbOrTx = Db | Tx;

/** Receives the payload of each NOTIFY on a channel; returns a function that stops listening. */
export type Listen = (channel: string, onPayload: (payload: string) => void) => Promise<() => Promise<void>>;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  listen: Listen;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

// Resolved from this file both in src/db/ (tsx) and in the bundled dist/.
const migrationsFolder = [new URL("../../drizzle", import.meta.url), new URL("../drizzle", import.meta.url)]
  .map((url) => fileURLToPath(url))
  .find((dir) => existsSync(path.join(dir, "meta", "_journal.json"))) as string;
// Any fixed number: serialises migrations when several processes start against one server.
const MIGRATION_LOCK = 727_001;

export async function openDatabase(options: { url?: string; dataDir?: string }): Promise<Database> {
  return options.url ? openPostgres(options.url) : openPglite(options.dataDir);
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client dropped by the server must not crash the process.
  pool.on("error", () => {});
  const db = drizzleNodePg(pool, { schema }) as unknown as Db;

  const lockClient = await pool.connect();
  try {
    await lockClient.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await migrateNodePg(drizzleNodePg(lockClient, { schema }), { migrationsFolder });
  } finally {
    await lockClient.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
    lockClient.release();
  }

  const listeners = new Set<pg.Client>();
  return {
    db,
    kind: "postgres",
    async listen(channel, onPayload) {
      const client = new pg.Client({ connectionString: url });
      client.on("error", () => {});
      await client.connect();
      client.on("notification", (message) => {
        if (message.channel === channel && message.payload) onPayload(message.payload);
      });
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      listeners.add(client);
      return async () => {
        listeners.delete(client);
        await client.end().catch(() => {});
      };
    },
    ping: () => ping(db),
    async close() {
      await Promise.all([...listeners].map((client) => client.end().catch(() => {})));
      await pool.end();
    },
  };
}

async function openPglite(dataDir?: string): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create(dataDir ?? "memory://");
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder });
  let closed = false;
  return {
    db,
    kind: "pglite",
    async listen(channel, onPayload) {
      const unsubscribe = await client.listen(channel, onPayload);
      return async () => {
        if (!closed) await unsubscribe();
      };
    },
    ping: () => ping(db),
    async close() {
      closed = true;
      await client.close();
    },
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
