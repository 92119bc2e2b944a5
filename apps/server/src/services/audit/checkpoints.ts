import type { AuditCheckpointDto } from "@tranche/domain";
import { and, asc, count, desc, eq, lte, sql } from "drizzle-orm";
import type { Deps, ServiceContext } from "../../context";
import { type Db, queryRows, type Tx } from "../../db/client";
import { auditCheckpoints, auditEvents } from "../../db/schema";
import { forbidden } from "../../errors";
import { type PeriodicTask, periodicTask } from "../../lib/periodic";
import { type DomainEvent, domainEvents, eventsInsert } from "../outbox/outbox";
import { releaseApprovalEvent } from "../releases/approval-event";
import { appendCheckpointLog } from "./checkpoint-log";
import type { AuditKey, AuditPublicKey } from "./signing-key";

type CheckpointRow = typeof auditCheckpoints.$inferSelect;

/** The exact bytes a checkpoint's signature covers. */
export function checkpointMessage(cp: Pick<CheckpointRow, "lastEventId" | "headHash" | "eventCount" | "createdAt">) {
  return ["tranche-audit-checkpoint/v1", cp.lastEventId, cp.headHash, cp.eventCount, cp.createdAt.toISOString()].join(
    "\n",
  );
}

export function toCheckpointDto(row: CheckpointRow): AuditCheckpointDto {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    lastEventId: row.lastEventId,
    headHash: row.headHash,
    eventCount: row.eventCount,
    keyId: row.keyId,
    signature: row.signature,
  };
}

// Only one process signs at a time; the others skip the round.
const CHECKPOINT_LOCK = 727_003;

/** The id the next checkpoint takes (taken before it is stored: its audit.checkpoint event carries it). */
const NEXT_CHECKPOINT_ID = sql`nextval(pg_get_serial_sequence('audit_checkpoints', 'id'))`;

/** What a checkpoint is signed from, as one statement reads it. */
interface HeadRead {
  /** The newest checkpoint. */
  last: CheckpointRow | undefined;
  /** The chain's head. */
  head: { id: number; hash: string } | undefined;
  /** Events after the newest checkpoint, up to the head. */
  since: number;
  /** The id a new checkpoint takes, when asked for and the head moved past the newest checkpoint. */
  nextId: number | null;
}

/**
 * The newest checkpoint, the chain head and the events between them, in one statement; with `allocate`, also the id
 * of the checkpoint that would sign the head, taken only when the head moved past the newest checkpoint and that
 * checkpoint does not already cover event `covering`.
 */
async function readHead(tx: Tx, { allocate = false, covering }: { allocate?: boolean; covering?: number } = {}) {
  const [row] = await queryRows<{
    last: {
      id: number;
      created_at: string;
      last_event_id: number;
      head_hash: string;
      event_count: number;
      key_id: string;
      signature: string;
    } | null;
    head: { id: number; hash: string } | null;
    since: number;
    next_id: string | null;
  }>(
    tx,
    sql`with last as (select * from ${auditCheckpoints} order by last_event_id desc limit 1),
             head as (select id, hash from ${auditEvents} order by id desc limit 1)
        select (select row_to_json(last) from last) as last,
               (select row_to_json(head) from head) as head,
               (select count(*)::int from ${auditEvents} e
                 where e.id > coalesce((select last_event_id from last), 0) and e.id <= (select id from head)) as since,
               case when ${allocate}::boolean
                     and (select id from head) > coalesce((select last_event_id from last), 0)
                     and not coalesce(${covering ?? null}::bigint <= (select last_event_id from last), false)
                    then ${NEXT_CHECKPOINT_ID} end as next_id`,
  );
  const last = row.last && {
    id: Number(row.last.id),
    createdAt: new Date(row.last.created_at),
    lastEventId: Number(row.last.last_event_id),
    headHash: row.last.head_hash,
    eventCount: Number(row.last.event_count),
    keyId: row.last.key_id,
    signature: row.last.signature,
  };
  const head = row.head && { id: Number(row.head.id), hash: row.head.hash };
  return {
    last: last ?? undefined,
    head: head ?? undefined,
    since: row.since,
    nextId: row.next_id === null ? null : Number(row.next_id),
  } satisfies HeadRead;
}

/**
 * Signs the head `read` found, stores the checkpoint and publishes `audit.checkpoint` (so a copy leaves Tranche), in
 * one statement. The number of events is the last checkpoint's and those after it: counting the whole record each
 * time would grow with it. (A record whose older rows were removed fails that last checkpoint's own check, and this
 * one's.)
 */
async function signHead(
  tx: Tx,
  key: AuditKey,
  read: HeadRead & { head: { id: number; hash: string } },
  now: Date,
): Promise<CheckpointRow> {
  const [taken] =
    read.nextId === null ? await queryRows<{ id: string }>(tx, sql`select ${NEXT_CHECKPOINT_ID} as id`) : [];
  const id = read.nextId ?? Number(taken.id);
  const content = {
    lastEventId: read.head.id,
    headHash: read.head.hash,
    eventCount: (read.last?.eventCount ?? 0) + read.since,
    createdAt: now,
  };
  const row: CheckpointRow = { id, ...content, keyId: key.keyId, signature: key.sign(checkpointMessage(content)) };
  const [event] = domainEvents([
    { type: "audit.checkpoint", data: { ...toCheckpointDto(row), publicKeyPem: key.publicKeyPem } },
  ]);
  await tx.execute(
    sql`with checkpoint as (
          insert into ${auditCheckpoints} (id, created_at, last_event_id, head_hash, event_count, key_id, signature)
          values (${row.id}, ${row.createdAt.toISOString()}::timestamptz, ${row.lastEventId}, ${row.headHash},
                  ${row.eventCount}, ${row.keyId}, ${row.signature}))
        ${eventsInsert([event])}`,
  );
  return row;
}

/** After its transaction committed (a rolled-back checkpoint must not be logged), a checkpoint joins the log. */
async function logCheckpoint(key: AuditKey, row: CheckpointRow): Promise<void> {
  if (key.logFile) await appendCheckpointLog(key.logFile, toCheckpointDto(row));
}

/**
 * Signs the chain head when it has moved and either `every` events were added since the last checkpoint or
 * `intervalMs` passed (`force` signs whenever it moved). Publishes `audit.checkpoint`, so a copy leaves Tranche.
 */
export async function takeCheckpoint(
  db: Db,
  key: AuditKey,
  rule: { every: number; intervalMs: number; force?: boolean; now?: Date },
): Promise<CheckpointRow | null> {
  const row = await db.transaction(async (tx) => {
    const [{ locked }] = await queryRows<{ locked: boolean }>(
      tx,
      sql`select pg_try_advisory_xact_lock(${CHECKPOINT_LOCK}) as locked`,
    );
    if (!locked) return null;
    const read = await readHead(tx);
    const { head, last } = read;
    if (!head) return null;
    if (last && last.lastEventId >= head.id) return null;
    const now = rule.now ?? new Date();
    const [first] = last
      ? [{ createdAt: last.createdAt }]
      : await tx.select({ createdAt: auditEvents.createdAt }).from(auditEvents).orderBy(asc(auditEvents.id)).limit(1);
    const due = rule.force || read.since >= rule.every || now.getTime() - first.createdAt.getTime() >= rule.intervalMs;
    if (!due) return null;
    return signHead(tx, key, { ...read, head }, now);
  });
  if (row) await logCheckpoint(key, row);
  return row;
}

/**
 * A checkpoint of the chain head as it is now: the newest stored one when the head has not moved since (or when it
 * already covers event `covering`), else a new one (waiting for a checkpoint another process is signing).
 * Everything committed before the call is covered, or at least event `covering`. Five round trips: begin, the lock,
 * the read, the checkpoint with its event, the commit.
 */
export async function checkpointHead(db: Db, key: AuditKey, covering?: number): Promise<CheckpointRow | null> {
  const signed = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CHECKPOINT_LOCK})`);
    const read = await readHead(tx, { allocate: true, covering });
    const { head, last } = read;
    if (last && covering !== undefined && last.lastEventId >= covering) return { row: last, fresh: false };
    if (!head) return null;
    if (last && last.lastEventId >= head.id) return { row: last, fresh: false };
    return { row: await signHead(tx, key, { ...read, head }, new Date()), fresh: true };
  });
  if (signed?.fresh) await logCheckpoint(key, signed.row);
  return signed?.row ?? null;
}

/** A checkpoint covering event `eventId` (or the head as it is now): checkpointHead, or sharedCheckpoints'. */
export type CheckpointSource = (eventId?: number) => Promise<CheckpointRow | null>;

/**
 * checkpointHead, shared by the releases one process instructs together. A checkpoint it already has that covers
 * the approval serves it with no round trip, and while one is being signed the others wait for that one instead of
 * queuing on the checkpoint lock one by one; one not covered by it asks again. Checkpoints never change once
 * stored, so the newest one seen stays true (a restore replaces the record under stopped servers: README,
 * "Backups that restore").
 */
export function sharedCheckpoints(db: Db, key: AuditKey): CheckpointSource {
  let newest: CheckpointRow | undefined;
  let signing: Promise<CheckpointRow | null> | undefined;
  return async (eventId) => {
    if (eventId === undefined) return checkpointHead(db, key);
    for (;;) {
      if (newest && newest.lastEventId >= eventId) return newest;
      signing ??= checkpointHead(db, key, eventId).finally(() => {
        signing = undefined;
      });
      const row = await signing;
      if (!row) return null;
      if (!newest || row.lastEventId > newest.lastEventId) newest = row;
      if (row.lastEventId >= eventId) return row;
    }
  };
}

/**
 * A `release.instructed` event leaves with a signed checkpoint of the record that covers its approval
 * (`data.checkpoint`, shaped like the `audit.checkpoint` payload): the approval's audit event committed with the
 * event, so the head signed now is at or after it. Once out, the custodian's copy pins the approval down. The
 * approval's hash (`data.approvalEventHash`) joins it here when the event was written before its approval was
 * audited (the approval's transaction writes it before taking the audit lock).
 */
export async function withReleaseCheckpoint(
  db: Db,
  key: AuditKey,
  event: DomainEvent,
  covering: CheckpointSource = (eventId) => checkpointHead(db, key, eventId),
): Promise<DomainEvent> {
  if (event.type !== "release.instructed" || event.data.checkpoint) return event;
  const milestoneId = (event.data.milestone as { id?: unknown } | undefined)?.id;
  const releaseId = event.data.releaseId;
  const hash = event.data.approvalEventHash;
  const [approval] =
    typeof milestoneId !== "string"
      ? []
      : typeof hash === "string"
        ? await db
            .select({ id: auditEvents.id, hash: auditEvents.hash })
            .from(auditEvents)
            .where(
              and(
                eq(auditEvents.entityType, "milestone"),
                eq(auditEvents.entityId, milestoneId),
                eq(auditEvents.hash, hash),
              ),
            )
            .limit(1)
        : typeof releaseId === "string"
          ? [await releaseApprovalEvent(db, { id: releaseId, milestoneId })]
          : [];
  const data = { ...event.data, approvalEventHash: typeof hash === "string" ? hash : (approval?.hash ?? null) };
  // A checkpoint signed since the approval already covers it: releases instructed together share one signature.
  const row = await covering(approval?.id);
  if (!row) return { ...event, data };
  return { ...event, data: { ...data, checkpoint: { ...toCheckpointDto(row), publicKeyPem: key.publicKeyPem } } };
}

export type Checkpointer = PeriodicTask<CheckpointRow | null>;

/** Checks every few seconds whether a checkpoint is due (100 events or 10 minutes by default). */
export function createCheckpointer(deps: Pick<Deps, "db" | "env" | "logger">, key: AuditKey): Checkpointer {
  const rule = { every: deps.env.AUDIT_CHECKPOINT_EVERY, intervalMs: deps.env.AUDIT_CHECKPOINT_INTERVAL_MS };
  return periodicTask({
    everyMs: Math.min(5_000, rule.intervalMs),
    run: () => takeCheckpoint(deps.db, key, rule),
    idle: null,
    logger: deps.logger,
    failure: "audit checkpoint failed",
  });
}

/** GET /api/audit/checkpoints: admins only, newest first. */
export async function listCheckpoints(
  ctx: ServiceContext,
  query: { before?: number; limit: number },
): Promise<{ items: AuditCheckpointDto[]; nextCursor: number | null }> {
  if (ctx.actor.role !== "admin") throw forbidden();
  const rows = await ctx.db
    .select()
    .from(auditCheckpoints)
    .where(query.before ? sql`${auditCheckpoints.id} < ${query.before}` : undefined)
    .orderBy(desc(auditCheckpoints.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  return {
    items: page.map(toCheckpointDto),
    nextCursor: rows.length > query.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

export async function hasCheckpoints(db: Db): Promise<boolean> {
  const rows = await db.select({ id: auditCheckpoints.id }).from(auditCheckpoints).limit(1);
  return rows.length > 0;
}

export interface CheckpointReport {
  verified: number;
  problems: string[];
}

/**
 * Checks every checkpoint against the record: its signature with the configured key, and that the event it
 * signed is still there with the same hash and the same number of events up to it. This catches what a hash
 * chain alone cannot: a truncated tail, and a chain recomputed by someone without the key.
 */
export async function verifyCheckpoints(db: Db, key: AuditPublicKey): Promise<CheckpointReport> {
  const problems: string[] = [];
  let verified = 0;
  const [head] = await db.select({ id: auditEvents.id }).from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
  const headId = head?.id ?? 0;
  const checkpoints = await db.select().from(auditCheckpoints).orderBy(asc(auditCheckpoints.id));
  for (const cp of checkpoints) {
    const name = `checkpoint ${cp.id} (${cp.createdAt.toISOString()}, event ${cp.lastEventId})`;
    if (cp.keyId !== key.keyId) {
      problems.push(`${name} was signed by key ${cp.keyId}, not the configured key ${key.keyId}`);
      continue;
    }
    if (!key.verify(checkpointMessage(cp), cp.signature)) {
      problems.push(`${name}: its signature does not verify: the checkpoint was altered`);
      continue;
    }
    const [event] = await db
      .select({ hash: auditEvents.hash })
      .from(auditEvents)
      .where(eq(auditEvents.id, cp.lastEventId));
    if (!event) {
      problems.push(
        cp.lastEventId > headId
          ? `truncated tail: the newest event is ${headId}, older than ${name}`
          : `${name}: the event it signed is missing`,
      );
      continue;
    }
    if (event.hash !== cp.headHash) {
      problems.push(`${name}: event ${cp.lastEventId} no longer has the signed hash: the chain was recomputed`);
      continue;
    }
    const [{ total }] = await db
      .select({ total: count() })
      .from(auditEvents)
      .where(lte(auditEvents.id, cp.lastEventId));
    if (total !== cp.eventCount) {
      problems.push(`${name} signed ${cp.eventCount} events up to it, the record now has ${total}`);
      continue;
    }
    verified++;
  }
  return { verified, problems };
}
