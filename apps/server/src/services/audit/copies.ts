import { asc, gt, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client";
import { auditCheckpoints, auditEvents } from "../../db/schema";
import { checkpointMessage } from "./checkpoints";
import type { AuditPublicKey } from "./signing-key";

/**
 * Copies of the record that left Tranche (webhook payloads, a saved list of checkpoints, the checkpoint log beside
 * the key), checked against the database: a copy cannot be taken back, so the record must still hold what it says.
 */
export interface SignedCheckpoint {
  id: number | null;
  createdAt: Date;
  lastEventId: number;
  headHash: string;
  eventCount: number;
  keyId: string;
  signature: string;
}

export interface RecordCopy {
  /** Where the copy came from, for the report: "item 3 of received.json (release.instructed …)". */
  source: string;
  checkpoint: SignedCheckpoint | null;
  /** The hash of the approval's audit event that a release.* event carried. */
  approvalEventHash: string | null;
}

const hex64 = z.string().regex(/^[0-9a-f]{64}$/, "a SHA-256 hash in hex");
const checkpointSchema = z.object({
  id: z.number().int().positive().nullish(),
  createdAt: z.iso.datetime({ offset: true }),
  lastEventId: z.number().int().positive(),
  headHash: hex64,
  eventCount: z.number().int().nonnegative(),
  keyId: z.string().min(1),
  signature: z.string().min(1),
});
const eventSchema = z.object({
  id: z.string(),
  type: z.string(),
  createdAt: z.string(),
  data: z.record(z.string(), z.unknown()),
});

function toSigned(value: z.infer<typeof checkpointSchema>): SignedCheckpoint {
  return { ...value, id: value.id ?? null, createdAt: new Date(value.createdAt) };
}

/**
 * Reads one received item: a webhook payload `{ id, type, createdAt, data }` (an `audit.checkpoint`, or a
 * `release.*` event with its `approvalEventHash` and `checkpoint`), or a checkpoint as `GET /api/audit/checkpoints`
 * lists it. Returns null for an event that carries nothing to check; throws a message for anything else.
 */
export function readCopy(item: unknown, source: string): RecordCopy | null {
  const event = eventSchema.safeParse(item);
  if (event.success) {
    const { type, data } = event.data;
    const named = `${source} (${type} ${event.data.id})`;
    const raw = type === "audit.checkpoint" ? data : data.checkpoint;
    let checkpoint: SignedCheckpoint | null = null;
    if (raw !== undefined && raw !== null) {
      const parsed = checkpointSchema.safeParse(raw);
      if (!parsed.success)
        throw new Error(`${named}: its checkpoint is not readable (${parsed.error.issues[0]?.message})`);
      checkpoint = toSigned(parsed.data);
    }
    let approvalEventHash: string | null = null;
    if (typeof data.approvalEventHash === "string") {
      const parsed = hex64.safeParse(data.approvalEventHash);
      if (!parsed.success) throw new Error(`${named}: its approvalEventHash is not a SHA-256 hash`);
      approvalEventHash = parsed.data;
    }
    return checkpoint || approvalEventHash ? { source: named, checkpoint, approvalEventHash } : null;
  }
  const parsed = checkpointSchema.safeParse(item);
  if (parsed.success) return { source, checkpoint: toSigned(parsed.data), approvalEventHash: null };
  throw new Error(`${source} is neither a webhook payload ({ id, type, createdAt, data }) nor a checkpoint`);
}

/** Every copy in a received JSON document: an array of items (or a page `{ items }` of the checkpoints list). */
export function readCopies(
  document: unknown,
  name: string,
): { copies: RecordCopy[]; skipped: number; errors: string[] } {
  const items = Array.isArray(document)
    ? document
    : document && typeof document === "object" && Array.isArray((document as { items?: unknown }).items)
      ? (document as { items: unknown[] }).items
      : null;
  if (!items) return { copies: [], skipped: 0, errors: [`${name} is not a JSON array of what Tranche sent`] };
  const copies: RecordCopy[] = [];
  const errors: string[] = [];
  let skipped = 0;
  items.forEach((item, index) => {
    try {
      const copy = readCopy(item, `item ${index + 1} of ${name}`);
      if (copy) copies.push(copy);
      else skipped++;
    } catch (error) {
      errors.push((error as Error).message);
    }
  });
  return { copies, skipped, errors };
}

export interface CopyReport {
  /** Distinct checkpoints whose signature verified and whose head the record still holds. */
  checkpoints: number;
  /** Approval hashes the record still holds. */
  approvals: number;
  problems: string[];
}

interface Position {
  id: number;
  hash: string;
  /** How many events there are up to and including this one. */
  count: number;
}

/** One pass over the record in id order: the events with these ids and these hashes, and the newest event. */
async function locate(db: Db, ids: Set<number>, hashes: Set<string>, batchSize = 5000) {
  const byId = new Map<number, Position>();
  const byHash = new Map<string, Position>();
  let lastId = 0;
  let count = 0;
  for (;;) {
    const rows = await db
      .select({ id: auditEvents.id, hash: auditEvents.hash })
      .from(auditEvents)
      .where(gt(auditEvents.id, lastId))
      .orderBy(asc(auditEvents.id))
      .limit(batchSize);
    if (rows.length === 0) break;
    for (const row of rows) {
      count++;
      if (ids.has(row.id)) byId.set(row.id, { ...row, count });
      if (hashes.has(row.hash)) byHash.set(row.hash, { ...row, count });
      lastId = row.id;
    }
  }
  return { byId, byHash, headId: lastId, total: count };
}

/**
 * Checks each copy: its signature with `key`, that the event it signed is still in the record with the signed
 * hash and the signed number of events up to it, that its checkpoint is still stored, and that the approval
 * event a release named is still there (and inside the checkpoint that came with it).
 */
export async function verifyCopies(db: Db, key: AuditPublicKey | null, copies: RecordCopy[]): Promise<CopyReport> {
  const problems: string[] = [];
  const seen = new Set<string>();
  const signed: { copy: RecordCopy; cp: SignedCheckpoint; name: string; trusted: boolean }[] = [];
  let unchecked = 0;
  for (const copy of copies) {
    const cp = copy.checkpoint;
    if (!cp || seen.has(cp.signature)) continue;
    seen.add(cp.signature);
    const name = `checkpoint ${cp.id ?? "?"} (${cp.createdAt.toISOString()}, event ${cp.lastEventId}) from ${copy.source}`;
    if (!key) {
      unchecked++;
      signed.push({ copy, cp, name, trusted: false });
    } else if (cp.keyId !== key.keyId) {
      problems.push(`${name} was signed by key ${cp.keyId}, not the configured key ${key.keyId}`);
    } else if (!key.verify(checkpointMessage(cp), cp.signature)) {
      problems.push(`${name}: its signature does not verify: the copy was altered`);
    } else {
      signed.push({ copy, cp, name, trusted: true });
    }
  }
  if (unchecked) {
    problems.push(
      `${unchecked} checkpoint copies cannot be checked: no audit signing key is configured (AUDIT_SIGNING_KEY, AUDIT_SIGNING_KEY_FILE or DATA_DIR) and no --public-key was given`,
    );
  }
  const approvals = copies.filter((c) => c.approvalEventHash);
  const { byId, byHash, headId } = await locate(
    db,
    new Set(signed.map((s) => s.cp.lastEventId)),
    new Set(approvals.map((c) => c.approvalEventHash as string)),
  );
  const signatures = signed.map((s) => s.cp.signature);
  const stored = new Set<string>();
  for (let i = 0; i < signatures.length; i += 1000) {
    const rows = await db
      .select({ signature: auditCheckpoints.signature })
      .from(auditCheckpoints)
      .where(inArray(auditCheckpoints.signature, signatures.slice(i, i + 1000)));
    for (const row of rows) stored.add(row.signature);
  }

  let verifiedCheckpoints = 0;
  for (const { cp, name, trusted } of signed) {
    const before = problems.length;
    const event = byId.get(cp.lastEventId);
    if (!event) {
      problems.push(
        cp.lastEventId > headId
          ? `truncated tail: the newest event is ${headId}, older than ${name}`
          : `${name}: the event it signed is missing`,
      );
    } else if (event.hash !== cp.headHash) {
      problems.push(`${name}: event ${cp.lastEventId} no longer has the signed hash: the chain was recomputed`);
    } else if (event.count !== cp.eventCount) {
      problems.push(`${name} signed ${cp.eventCount} events up to it, the record now has ${event.count}`);
    }
    if (!stored.has(cp.signature)) {
      problems.push(`${name} is no longer among the stored checkpoints: its row was deleted`);
    }
    if (trusted && problems.length === before) verifiedCheckpoints++;
  }

  let verifiedApprovals = 0;
  for (const copy of approvals) {
    const hash = copy.approvalEventHash as string;
    const event = byHash.get(hash);
    if (!event) {
      problems.push(
        `${copy.source}: the approval event with hash ${hash} is not in the record: it was deleted or rewritten`,
      );
    } else if (copy.checkpoint && event.id > copy.checkpoint.lastEventId) {
      problems.push(
        `${copy.source}: the approval event ${event.id} comes after event ${copy.checkpoint.lastEventId}, the head of the checkpoint sent with it`,
      );
    } else {
      verifiedApprovals++;
    }
  }
  return { checkpoints: verifiedCheckpoints, approvals: verifiedApprovals, problems };
}
