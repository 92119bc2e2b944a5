import { createHash } from "node:crypto";

export const GENESIS_HASH = "0".repeat(64);

/** JSON with object keys sorted at every depth, so the same content always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export interface AuditContent {
  createdAt: Date;
  actorId: string | null;
  action: string;
  entityType: string;
  entityId: string;
  projectId: string | null;
  before: unknown;
  after: unknown;
}

/** A stored row's content, as its hash covers it. */
export const auditContentOf = (row: AuditContent): AuditContent => ({
  createdAt: row.createdAt,
  actorId: row.actorId,
  action: row.action,
  entityType: row.entityType,
  entityId: row.entityId,
  projectId: row.projectId,
  before: row.before,
  after: row.after,
});

/** What an event's hash covers besides the previous hash: its content as canonical JSON. */
export const auditBody = (content: AuditContent) =>
  canonicalJson({ ...content, createdAt: content.createdAt.toISOString() });

/** hash = SHA-256(previous row's hash + this row's canonical content). */
export function auditHash(prevHash: string, content: AuditContent): string {
  return createHash("sha256").update(prevHash).update(auditBody(content)).digest("hex");
}
