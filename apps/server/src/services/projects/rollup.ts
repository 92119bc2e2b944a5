import { type SQL, sql } from "drizzle-orm";
import { type DbOrTx, queryRows } from "../../db/client";
import { AUDIT_LOCK, executeTakingAuditLock, lockAuditRecord } from "../audit/lock";

// A project's rollup is recomputed whole from its milestones, release rows and audit events (the view
// project_rollup_expected, migration 0007) rather than adjusted by deltas: a project has few milestones, so this
// is cheap, and a recomputation cannot drift the way an increment can.

/**
 * The rollup's columns besides project_id (refresh_project_rollup, migration 0030, spells the same list: a test holds
 * them equal).
 */
export const ROLLUP_COLUMNS = [
  "currency",
  "released",
  "settled",
  "pending_capital",
  "milestones_total",
  "milestones_pending",
  "milestones_in_verification",
  "milestones_verified",
  "milestones_rejected",
  "milestones_delayed",
  "next_due_date",
  "last_activity_at",
  "verifiers",
  "next_open_due_date",
];
const columns = (prefix = "") => sql.raw(ROLLUP_COLUMNS.map((name) => `${prefix}${name}`).join(", "));
/** The platform totals (migration 0024): the projects, each summed rollup figure, those without a verifier. */
const TOTALS = [
  "projects",
  ...ROLLUP_COLUMNS.filter(
    (name) => !["currency", "next_due_date", "last_activity_at", "verifiers", "next_open_due_date"].includes(name),
  ),
  "projects_without_verifier",
];
const totals = (prefix: string) => sql.raw(TOTALS.map((name) => `${prefix}${name}`).join(", "));

/** Copies the recomputed rows that `where` picks (all when undefined) into project_rollups. */
function upsertFromExpected(where?: SQL): SQL {
  return sql`
    insert into project_rollups (project_id, ${columns()})
    select project_id, ${columns()} from project_rollup_expected ${where ? sql`where ${where}` : sql``}
    on conflict (project_id) do update set (${columns()}) = (${columns("excluded.")})`;
}

/**
 * Recomputes one project's rollup row. Call inside the transaction of every change to the project's milestones or
 * releases (recomputeProjectStatus does), after the change is written. A deleted project has no row. Lock order:
 * the audit record's lock, then the rollup row (as appendAudit takes them): refresh_project_rollup (migration 0030)
 * takes the lock and then recomputes this row, in one round trip.
 */
export async function refreshProjectRollup(tx: DbOrTx, projectId: string): Promise<void> {
  await executeTakingAuditLock(tx, sql`select refresh_project_rollup(${projectId}::uuid, ${AUDIT_LOCK}::bigint)`);
}

/** Recomputes the rollups of several projects at once (bulk loads: seed-scale). */
export async function refreshProjectRollups(tx: DbOrTx, projectIds: string[]): Promise<void> {
  await lockAuditRecord(tx);
  await tx.execute(
    upsertFromExpected(
      sql`project_id in (${sql.join(
        projectIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    ),
  );
}

const json = (value: unknown) =>
  value === null ? null : ((typeof value === "string" ? JSON.parse(value) : value) as Record<string, unknown>);

export interface RollupDifference {
  projectId: string;
  /** The stored row and the recomputed one as JSON (null: no row). */
  stored: Record<string, unknown> | null;
  expected: Record<string, unknown> | null;
}

/** Every project (or the one named) whose stored rollup differs from a recomputation (missing rows included). */
export async function findRollupDifferences(db: DbOrTx, projectId?: string): Promise<RollupDifference[]> {
  const stored = projectId
    ? sql`(select * from project_rollups where project_id = ${projectId})`
    : sql`project_rollups`;
  const expected = projectId
    ? sql`(select * from project_rollup_expected where project_id = ${projectId})`
    : sql`project_rollup_expected`;
  const rows = await queryRows<{ project_id: string; stored: unknown; expected: unknown }>(
    db,
    sql`select coalesce(s.project_id, e.project_id) as project_id,
               case when s.project_id is null then null else to_jsonb(s) end as stored,
               case when e.project_id is null then null else to_jsonb(e) end as expected
        from ${stored} s
        full outer join ${expected} e on e.project_id = s.project_id
        where s.project_id is null or e.project_id is null
           or (${columns("s.")}) is distinct from (${columns("e.")})
        order by 1`,
  );
  return rows.map((r) => ({ projectId: r.project_id, stored: json(r.stored), expected: json(r.expected) }));
}

/**
 * Each currency whose platform totals (platform_totals: the base rows and the deltas the triggers append, migrations
 * 0024 and 0043) differ from the sum of the project rollups, as { currency, stored, expected } (null: no row).
 */
export async function findPlatformRollupDifferences(
  db: DbOrTx,
): Promise<{ currency: string; stored: Record<string, unknown> | null; expected: Record<string, unknown> | null }[]> {
  const rows = await queryRows<{ currency: string; stored: unknown; expected: unknown }>(
    db,
    sql`select coalesce(s.currency, e.currency) as currency,
               case when s.currency is null then null else to_jsonb(s) end as stored,
               case when e.currency is null then null else to_jsonb(e) end as expected
        from platform_totals s
        full outer join platform_rollup_expected e on e.currency = s.currency
        where s.currency is null or e.currency is null
           or (${totals("s.")}) is distinct from (${totals("e.")})
        order by 1`,
  );
  return rows.map((r) => ({ currency: r.currency, stored: json(r.stored), expected: json(r.expected) }));
}

/**
 * Releases made in another currency than their project's, which no rollup counts. Migration 0033's foreign key
 * refuses new ones; these are older, and are not rewritten by `--fix` (which currency was meant is for people).
 */
export async function findReleasesInAnotherCurrency(
  db: DbOrTx,
): Promise<{ releaseId: string; projectId: string; currency: string; projectCurrency: string }[]> {
  const rows = await queryRows<{ id: string; project_id: string; currency: string; project_currency: string }>(
    db,
    sql`select d.id, d.project_id, d.currency, p.currency as project_currency
        from disbursements d join projects p on p.id = d.project_id
        where d.currency <> p.currency order by d.created_at, d.id`,
  );
  return rows.map((r) => ({
    releaseId: r.id,
    projectId: r.project_id,
    currency: r.currency,
    projectCurrency: r.project_currency,
  }));
}

/** Rewrites every project's rollup from a recomputation, then the platform totals (`rollups verify --fix`). */
export async function rebuildAllRollups(db: DbOrTx): Promise<void> {
  await db.execute(upsertFromExpected());
  await db.execute(sql`delete from platform_rollup_deltas`);
  await db.execute(sql`delete from platform_rollups`);
  await db.execute(sql`insert into platform_rollups select * from platform_rollup_expected`);
}

/**
 * Folds the platform totals' deltas into their base rows (compact_platform_rollups, migration 0043), in one statement:
 * the totals a reader sums are the same before and after. Resolves to how many deltas it folded.
 */
export async function compactPlatformRollups(db: DbOrTx): Promise<number> {
  const [row] = await queryRows<{ folded: number }>(db, sql`select compact_platform_rollups() as folded`);
  return Number(row?.folded ?? 0);
}
