import { type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";

// Appends to the audit record are serialised by this transaction-scoped lock so the chain never forks.
export const AUDIT_LOCK = 727_002;

/**
 * Takes the audit record's lock for the rest of the transaction (again is a no-op). Whatever also writes a project's
 * rollup row takes it first: appendAudit updates that row while holding the lock, so a transaction that updated the
 * row before asking for the lock could deadlock against an append on the same project.
 */
export async function lockAuditRecord(tx: DbOrTx): Promise<void> {
  // Taken once per transaction object: a second request would be a round trip that changes nothing. (A savepoint
  // is another object, so one rolled back, which releases what it took, is never mistaken for the holder.)
  if (holders.has(tx)) return;
  await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_LOCK})`);
  // Outside a transaction (a bulk load's helper given the pool) the lock ends with its statement: asked again.
  if ("rollback" in tx) holders.add(tx);
}

/**
 * Runs `statement`, which takes the audit record's lock itself before anything else (refresh_project_rollup), and
 * remembers that the transaction holds it: one round trip where the lock and the statement would be two.
 */
export async function executeTakingAuditLock(tx: DbOrTx, statement: SQL): Promise<void> {
  await tx.execute(statement);
  if ("rollback" in tx) holders.add(tx);
}

const holders = new WeakSet<DbOrTx>();
