import type { ProjectStatus } from "@tranche/domain";
import { and, asc, eq, sql } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { projectRollups, projects } from "../../db/schema";
import type { CsvValue } from "../../lib/csv";
import { projectFilter } from "./list";
import { projectStatusSql } from "./status";

/** Rows fetched per query: the export holds one batch in memory at a time, however many projects match. */
export const EXPORT_BATCH = 500;

export const PROJECT_CSV_HEADER = [
  "id",
  "name",
  "status",
  "currency",
  "total_capital",
  "released",
  "remaining",
  "milestones",
  "start_date",
  "end_date",
  "location",
  "created_at",
];

const released = sql<string>`coalesce((select sum(d.amount) from disbursements d where d.project_id = projects.id), 0)`;

/**
 * The projects the list shows (the caller's visible projects, same status and search filters), oldest first,
 * read page by page on (created_at, id) so nothing is skipped or repeated. Amounts are the database's exact
 * decimals, as text.
 */
export async function* exportProjects(
  ctx: ServiceContext,
  input: { status?: ProjectStatus; q?: string },
): AsyncGenerator<CsvValue[][]> {
  const filter = projectFilter({ kind: "user", user: ctx.actor }, input);
  let after: { createdAt: string; id: string } | undefined;
  for (;;) {
    const rows = await ctx.db
      .select({
        id: projects.id,
        name: projects.name,
        status: projectStatusSql("projects", "project_rollups"),
        currency: projects.currency,
        total: sql<string>`${projects.totalCapital}::text`,
        released: sql<string>`${released}::numeric(20,2)::text`,
        remaining: sql<string>`(${projects.totalCapital} - ${released})::numeric(20,2)::text`,
        milestones: sql<number>`(select count(*)::int from milestones m where m.project_id = projects.id)`,
        startDate: projects.startDate,
        endDate: projects.endDate,
        location: projects.location,
        createdAt: projects.createdAt,
        cursor: sql<string>`${projects.createdAt}::text`,
      })
      .from(projects)
      .leftJoin(projectRollups, eq(projectRollups.projectId, projects.id))
      .where(
        and(
          filter,
          after
            ? sql`(projects.created_at, projects.id) > (${after.createdAt}::timestamptz, ${after.id}::uuid)`
            : undefined,
        ),
      )
      .orderBy(asc(projects.createdAt), asc(projects.id))
      .limit(EXPORT_BATCH);
    if (rows.length > 0) {
      yield rows.map((row) => [
        row.id,
        row.name,
        row.status,
        row.currency,
        row.total,
        row.released,
        row.remaining,
        Number(row.milestones),
        row.startDate,
        row.endDate,
        row.location,
        row.createdAt.toISOString(),
      ]);
    }
    if (rows.length < EXPORT_BATCH) return;
    const last = rows[rows.length - 1];
    after = { createdAt: last.cursor, id: last.id };
  }
}
