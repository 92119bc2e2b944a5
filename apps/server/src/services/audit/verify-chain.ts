import { asc, gt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { auditEvents } from "../../db/schema";
import { auditContentOf, auditHash, GENESIS_HASH } from "./chain";

export type ChainResult = { ok: true; count: number } | { ok: false; count: number; brokenId: number; reason: string };

/** Where a verification of the chain has got to: the last row it checked and that row's hash. */
export interface ChainPosition {
  lastId: number;
  prevHash: string;
}

/** Re-computes every row's hash in order; names the first row whose link or content does not match. */
export function verifyAuditChain(db: Db, batchSize = 1000): Promise<ChainResult> {
  return verifyAuditChainFrom(db, { lastId: 0, prevHash: GENESIS_HASH }, batchSize);
}

/**
 * The same check from `position` on (rows appended since an earlier check); `position` moves past every row that
 * verified, so checking again later reads only what came after.
 */
export async function verifyAuditChainFrom(db: Db, position: ChainPosition, batchSize = 1000): Promise<ChainResult> {
  let { prevHash, lastId } = position;
  let count = 0;
  for (;;) {
    const rows = await db
      .select()
      .from(auditEvents)
      .where(gt(auditEvents.id, lastId))
      .orderBy(asc(auditEvents.id))
      .limit(batchSize);
    if (rows.length === 0) return { ok: true, count };
    for (const row of rows) {
      if (row.prevHash !== prevHash) {
        return {
          ok: false,
          count,
          brokenId: row.id,
          reason: "its previous-hash link does not match the row before it",
        };
      }
      const expected = auditHash(prevHash, auditContentOf(row));
      if (expected !== row.hash) {
        return { ok: false, count, brokenId: row.id, reason: "its content does not match its hash" };
      }
      prevHash = row.hash;
      lastId = row.id;
      position.prevHash = prevHash;
      position.lastId = lastId;
      count++;
    }
  }
}
