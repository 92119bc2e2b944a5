import { type SQL, sql } from "drizzle-orm";
import { queryRows, type Tx } from "../../db/client";
import { type AuditContent, auditBody, GENESIS_HASH } from "./chain";
import { lockAuditRecord } from "./lock";

export { AUDIT_LOCK } from "./lock";

export interface AuditInput {
  actorId: string | null;
  action: string;
  entityType:
    | "user"
    | "project"
    | "member"
    | "milestone"
    | "evidence"
    | "disbursement"
    | "report"
    | "public_request"
    | "api_token"
    | "webhook_endpoint"
    | "invitation";
  entityId: string;
  projectId?: string | null;
  before?: unknown;
  after?: unknown;
  /**
   * When it happened, for records written after the fact (the demo data's history): no earlier than the last
   * event, so the chain stays in time order. Default: now.
   */
  createdAt?: Date;
}

/** Round-trips a value through JSON so what is hashed is exactly what jsonb gives back. */
function plain(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}

/** An appended event, as what follows in its transaction may cite it (a certificate, a release's event). */
export interface AppendedAudit {
  id: number;
  hash: string;
  createdAt: Date;
}

const jsonParam = (value: unknown) => sql`${value === null ? null : JSON.stringify(value)}::jsonb`;

/** What an event's hash covers, from what a caller gives. */
export function auditContent(input: AuditInput): AuditContent {
  return {
    createdAt: input.createdAt ?? new Date(),
    actorId: input.actorId,
    action: input.action,
    entityType: input.entityType,
    entityId: input.entityId,
    projectId: input.projectId ?? null,
    before: plain(input.before),
    after: plain(input.after),
  };
}

const at = (content: AuditContent) => sql`${content.createdAt.toISOString()}::timestamptz`;

/** The chain's head, as the first part of an append's statement (`head`: its hash and time). */
export const HEAD = sql`head as (
  select coalesce(last.hash, ${GENESIS_HASH}) as hash, last.created_at
  from (select 1) one
  left join lateral (select hash, created_at from audit_events order by id desc limit 1) last on true)`;

/**
 * The insert of one event hashed onto `prev` (an SQL expression of the previous hash, in scope of `from`): SHA-256
 * of the previous hash and `body`, the event's canonical JSON (`auditBody`, or SQL that builds the same text).
 */
export function insertEvent(
  content: AuditContent,
  prev: SQL,
  from: SQL,
  options: { body?: SQL; after?: SQL; where?: SQL } = {},
): SQL {
  const body = options.body ?? sql`${auditBody(content)}::text`;
  return sql`insert into audit_events (created_at, actor_id, action, entity_type, entity_id, project_id, before,
                                       after, prev_hash, hash)
    select ${at(content)}, ${content.actorId}::uuid, ${content.action}, ${content.entityType}, ${content.entityId},
           ${content.projectId}::uuid, ${jsonParam(content.before)}, ${options.after ?? jsonParam(content.after)},
           ${prev}, encode(sha256(convert_to(${prev} || ${body}, 'UTF8')), 'hex')
    from ${from}
    where ${options.where ?? sql`true`}
    returning id, hash, project_id`;
}

/** Moves the latest activity of the project of the events in `added` to `content`'s time, as the last part. */
export const touchProject = (content: AuditContent, added: SQL) => sql`touched as (
  update project_rollups set last_activity_at = greatest(last_activity_at, ${at(content)})
  from ${added} where project_rollups.project_id = ${added}.project_id)`;

/**
 * Appends one event to the hash-chained audit record, inside the caller's transaction, in one statement after the
 * lock: it reads the chain's head, hashes the event onto it (SHA-256 of the head's hash and the event's canonical
 * JSON, built here: `auditHash` gives the same), inserts it and moves its project's latest activity. The lock is
 * held until commit and every audited write waits on it, so each round trip under it counts
 * (docs/decisions/029-approvals-hold-the-lock-for-writes-only.md).
 */
export async function appendAudit(tx: Tx, input: AuditInput): Promise<AppendedAudit> {
  await lockAuditRecord(tx);
  const content = auditContent(input);
  const [row] = await queryRows<{ id: string; hash: string }>(
    tx,
    sql`with ${HEAD}, added as (${insertEvent(content, sql`head.hash`, sql`head`, {
      // An event written after the fact (input.createdAt) may not be dated before the head.
      where: input.createdAt ? sql`head.created_at is null or head.created_at <= ${at(content)}` : undefined,
    })}), ${touchProject(content, sql`added`)}
        select id, hash from added`,
  );
  if (!row) throw new Error(`audit event ${input.action} dated before the last event`);
  return { id: Number(row.id), hash: row.hash, createdAt: content.createdAt };
}
