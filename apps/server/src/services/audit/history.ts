import type { AuditEventDto } from "@tranche/domain";
import { and, desc, eq, inArray, lt, or, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import type { DbOrTx } from "../../db/client";
import { apiTokens, auditEvents, projectMembers, users } from "../../db/schema";
import type { CsvValue } from "../../lib/csv";
import { keysetBatches, type SortSpec } from "../../lib/keyset";
import { requireVisibleMilestone } from "../access";
import { EXPORT_BATCH } from "../projects/export";

const columns = {
  id: auditEvents.id,
  action: auditEvents.action,
  actorId: auditEvents.actorId,
  actorName: sql<string | null>`coalesce(${users.name}, 'API token ' || ${apiTokens.name})`,
  entityType: auditEvents.entityType,
  entityId: auditEvents.entityId,
  projectId: auditEvents.projectId,
  createdAt: auditEvents.createdAt,
  before: auditEvents.before,
  after: auditEvents.after,
};

type Row = { [K in keyof typeof columns]: unknown } & { id: number; createdAt: Date };

function toDto(row: Row): AuditEventDto {
  return {
    id: row.id,
    action: row.action as string,
    actor: row.actorId ? { id: row.actorId as string, name: (row.actorName as string | null) ?? "Unknown" } : null,
    entityType: row.entityType as string,
    entityId: row.entityId as string,
    createdAt: row.createdAt.toISOString(),
    before: row.before,
    after: row.after,
  };
}

function selectEvents(db: DbOrTx) {
  // An actor is a person, or an API token (a custodian reporting a settlement).
  return db
    .select(columns)
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.actorId))
    .leftJoin(apiTokens, eq(apiTokens.id, auditEvents.actorId))
    .$dynamic();
}

/**
 * A milestone's history, oldest first: its own events and those of its evidence, release and reports,
 * which name it as `milestoneId` in their before/after.
 */
export async function milestoneHistory(ctx: ServiceContext, milestoneId: string): Promise<AuditEventDto[]> {
  const { project } = await requireVisibleMilestone(ctx.db, ctx.actor, milestoneId);
  const rows = await selectEvents(ctx.db)
    .where(
      and(
        eq(auditEvents.projectId, project.id),
        or(
          and(eq(auditEvents.entityType, "milestone"), eq(auditEvents.entityId, milestoneId)),
          sql`${auditEvents.after}->>'milestoneId' = ${milestoneId}`,
          sql`${auditEvents.before}->>'milestoneId' = ${milestoneId}`,
        ),
      ),
    )
    .orderBy(auditEvents.id)
    .limit(500);
  return rows.map(toDto);
}

export const AUDIT_PAGE_SIZE = 50;

/** The audit record, newest first: everything for admins; other users see the events of their projects. */
export async function listAuditEvents(
  ctx: ServiceContext,
  query: { projectId?: string; before?: number; limit?: number },
): Promise<{ items: AuditEventDto[]; nextCursor: string | null }> {
  const { db } = ctx;
  const limit = query.limit ?? AUDIT_PAGE_SIZE;
  const conditions = [auditFilter(ctx, query)];
  if (query.before) conditions.push(lt(auditEvents.id, query.before));
  const rows = await selectEvents(db)
    .where(and(...conditions))
    .orderBy(desc(auditEvents.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    items: page.map(toDto),
    nextCursor: rows.length > limit ? String(page[page.length - 1].id) : null,
  };
}

/** Who sees which events (admins all, others their projects' events), and the project filter; the export's too. */
export function auditFilter(ctx: ServiceContext, query: { projectId?: string }): SQL | undefined {
  const { db, actor } = ctx;
  return and(
    query.projectId ? eq(auditEvents.projectId, query.projectId) : undefined,
    actor.role === "admin"
      ? undefined
      : inArray(
          auditEvents.projectId,
          db.select({ id: projectMembers.projectId }).from(projectMembers).where(eq(projectMembers.userId, actor.id)),
        ),
  );
}

export const AUDIT_CSV_HEADER = [
  "id",
  "created_at",
  "action",
  "actor_id",
  "actor",
  "entity_type",
  "entity_id",
  "project_id",
  "before",
  "after",
  "hash",
];

/** The record in the order it was written. */
const OLDEST: SortSpec = { name: "oldest", direction: "asc", keys: [{ expr: auditEvents.id, type: "bigint" }] };

/** The audit events the caller may see, oldest first, in batches by id; before/after as their JSON text. */
export async function* exportAuditEvents(
  ctx: ServiceContext,
  query: { projectId?: string },
): AsyncGenerator<CsvValue[][]> {
  const filter = auditFilter(ctx, query);
  const batches = keysetBatches(OLDEST, EXPORT_BATCH, (page) =>
    ctx.db
      .select({ ...columns, hash: auditEvents.hash, keysetKeys: page.keys })
      .from(auditEvents)
      .leftJoin(users, eq(users.id, auditEvents.actorId))
      .leftJoin(apiTokens, eq(apiTokens.id, auditEvents.actorId))
      .where(and(filter, page.after))
      .orderBy(...page.orderBy)
      .limit(page.limit),
  );
  for await (const rows of batches) {
    yield rows.map((row) => [
      row.id,
      row.createdAt.toISOString(),
      row.action,
      row.actorId,
      row.actorName,
      row.entityType,
      row.entityId,
      row.projectId,
      row.before === null ? null : JSON.stringify(row.before),
      row.after === null ? null : JSON.stringify(row.after),
      row.hash,
    ]);
  }
}
