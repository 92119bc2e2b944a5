import type { Db } from "../../db/client";
import { readCheckpointLog } from "./checkpoint-log";
import { hasCheckpoints, verifyCheckpoints } from "./checkpoints";
import { type RecordCopy, readCopy, verifyCopies } from "./copies";
import type { AuditPublicKey } from "./signing-key";
import { verifyAuditChain } from "./verify-chain";

export interface RecordVerification {
  /** What held, for stdout. */
  lines: string[];
  /** What is missing or altered, one sentence each (none: the record is intact). */
  problems: string[];
}

/**
 * Everything `npm run cli -- audit verify` checks: the hash chain; every stored checkpoint; the checkpoint log
 * beside the key (what this installation signed, whatever the database says now); and the copies that left
 * Tranche (`received`). The log and the copies name deleted checkpoints, a truncated or emptied record and a
 * chain recomputed before their heads, which the database alone cannot show.
 */
export async function verifyRecord(
  db: Db,
  options: {
    key: AuditPublicKey | null;
    logFile: string | null;
    received?: { name: string; copies: RecordCopy[]; skipped: number };
  },
): Promise<RecordVerification> {
  const { key, logFile, received } = options;
  const lines: string[] = [];
  const problems: string[] = [];
  const chain = await verifyAuditChain(db);
  if (chain.ok) lines.push(`Audit chain intact: ${chain.count} events verified.`);
  else
    problems.push(
      `Audit chain broken at event ${chain.brokenId}: ${chain.reason}. ${chain.count} events before it verified.`,
    );

  const report = key ? await verifyCheckpoints(db, key) : null;
  if (report && key) {
    problems.push(...report.problems);
    lines.push(`Checkpoints verified: ${report.verified} signed with key ${key.keyId}.`);
  } else if (await hasCheckpoints(db)) {
    problems.push(
      "Checkpoints exist but no audit signing key is configured (AUDIT_SIGNING_KEY, AUDIT_SIGNING_KEY_FILE or DATA_DIR): they cannot be checked.",
    );
  } else {
    lines.push("No signing key and no checkpoints: only the chain was checked.");
  }

  const log = logFile ? await readCheckpointLog(logFile) : null;
  if (log && logFile) {
    problems.push(...log.problems);
    const copies: RecordCopy[] = [];
    for (const { line, value } of log.lines) {
      try {
        const copy = readCopy(value, `line ${line} of the checkpoint log ${logFile}`);
        if (copy) copies.push(copy);
      } catch (error) {
        problems.push(`${(error as Error).message}: the log was altered`);
      }
    }
    const logged = await verifyCopies(db, key, copies);
    problems.push(...logged.problems);
    lines.push(`Checkpoint log ${logFile}: ${logged.checkpoints} of ${copies.length} checkpoints verified.`);
  } else if (logFile) {
    lines.push(`No checkpoint log at ${logFile}: only the stored checkpoints were checked.`);
  }

  if (received) {
    const sent = await verifyCopies(db, key, received.copies);
    problems.push(...sent.problems);
    const checkpoints = new Set(received.copies.flatMap((c) => (c.checkpoint ? [c.checkpoint.signature] : []))).size;
    const hashes = received.copies.filter((c) => c.approvalEventHash).length;
    const skipped = received.skipped ? ` (${received.skipped} items carried neither)` : "";
    lines.push(
      `Copies from ${received.name}: ${sent.checkpoints} of ${checkpoints} checkpoints and ${sent.approvals} of ${hashes} approval hashes verified${skipped}.`,
    );
  }
  return { lines, problems };
}
