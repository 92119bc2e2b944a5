import { desc } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { auditEvents } from "../../db/schema";
import { touchProjectActivity } from "../projects/rollup";
import { type AuditContent, auditHash, GENESIS_HASH } from "./chain";
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

/** Appends one event to the hash-chained audit record, inside the caller's transaction. */
export async function appendAudit(tx: Tx, input: AuditInput): Promise<AppendedAudit> {
  await lockAuditRecord(tx);
  const [last] = await tx
    .select({ hash: auditEvents.hash, createdAt: auditEvents.createdAt })
    .from(auditEvents)
    .orderBy(desc(auditEvents.id))
    .limit(1);
  const prevHash = last?.hash ?? GENESIS_HASH;
  if (input.createdAt && last && input.createdAt < last.createdAt) {
    throw new Error(`audit event ${input.action} dated before the last event`);
  }
  const content: AuditContent = {
    createdAt: input.createdAt ?? new Date(),
    actorId: input.actorId,
    action: input.action,
    entityType: input.entityType,
    entityId: input.entityId,
    projectId: input.projectId ?? null,
    before: plain(input.before),
    after: plain(input.after),
  };
  const hash = auditHash(prevHash, content);
  const [row] = await tx
    .insert(auditEvents)
    .values({ ...content, prevHash, hash })
    .returning({ id: auditEvents.id });
  if (content.projectId) await touchProjectActivity(tx, content.projectId, content.createdAt);
  return { id: row.id, hash, createdAt: content.createdAt };
}
