// The one list of flags on evidence files (evidence_flags): the capture tags' (upload.ts) and the background
// checks' (evidence-checks/run.ts) are written the same way.
import { sql } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { evidenceFlags } from "../../db/schema";

type FlagRow = typeof evidenceFlags.$inferInsert;

/**
 * Upserts flags, one per code per file. A flag someone dismissed stays dismissed (its text is left as it was when
 * they read it), and so does a flag of the source `keepSource` names.
 */
export async function upsertFlags(tx: Tx, rows: FlagRow[], keepSource?: string): Promise<void> {
  if (rows.length === 0) return;
  const writable = keepSource
    ? sql`${evidenceFlags.dismissedAt} is null and ${evidenceFlags.source} <> ${keepSource}`
    : sql`${evidenceFlags.dismissedAt} is null`;
  await tx
    .insert(evidenceFlags)
    .values(rows)
    .onConflictDoUpdate({
      target: [evidenceFlags.evidenceId, evidenceFlags.code],
      set: {
        severity: sql`excluded.severity`,
        message: sql`excluded.message`,
        details: sql`excluded.details`,
        source: sql`excluded.source`,
      },
      setWhere: writable,
    });
}
