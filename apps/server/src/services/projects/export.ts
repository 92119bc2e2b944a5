import type { ProjectSort, ProjectStatus } from "@tranche/domain";
import { and, eq, sql } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { projectRollups, projects } from "../../db/schema";
import type { CsvValue } from "../../lib/csv";
import { keysetBatches } from "../../lib/keyset";
import { PROJECT_SORT_SPECS, projectFilter } from "./list";
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
 * The projects the list shows (the caller's visible projects, same status and search filters), in the list's sort,
 * read a batch at a time on that sort's keys so nothing is skipped or repeated. Amounts are the database's exact
 * decimals, as text.
 */
export async function* exportProjects(
  ctx: ServiceContext,
  input: { status?: ProjectStatus; q?: string; sort: ProjectSort },
): AsyncGenerator<CsvValue[][]> {
  const filter = projectFilter({ kind: "user", user: ctx.actor }, input);
  const batches = keysetBatches(PROJECT_SORT_SPECS[input.sort], EXPORT_BATCH, (page) =>
    ctx.db
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
        keysetKeys: page.keys,
      })
      .from(projects)
      .leftJoin(projectRollups, eq(projectRollups.projectId, projects.id))
      .where(and(filter, page.after))
      .orderBy(...page.orderBy)
      .limit(page.limit),
  );
  for await (const rows of batches) {
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
}
