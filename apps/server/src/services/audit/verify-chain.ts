import { asc, gt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { auditEvents } from "../../db/schema";
import { auditHash, GENESIS_HASH } from "./chain";

export type ChainResult = { ok: true; count: number } | { ok: false; count: number; brokenId: number; reason: string };

/** Re-computes every row's hash in order; names the first row whose link or content does not match. */
export async function verifyAuditChain(db: Db, batchSize = 1000): Promise<ChainResult> {
  let prevHash = GENESIS_HASH;
  let lastId = 0;
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
      const expected = auditHash(prevHash, {
        createdAt: row.createdAt,
        actorId: row.actorId,
        action: row.action,
        entityType: row.entityType,
        entityId: row.entityId,
        projectId: row.projectId,
        before: row.before,
        after: row.after,
      });
      if (expected !== row.hash) {
        return { ok: false, count, brokenId: row.id, reason: "its content does not match its hash" };
      }
      prevHash = row.hash;
      lastId = row.id;
      count++;
    }
  }
}
