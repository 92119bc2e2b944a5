import { earliestTodayIso, type ProjectStatus } from "@tranche/domain";
import { type SQL, sql } from "drizzle-orm";

// A project's status, derived on read. It depends on the calendar (a milestone's due date passing puts the project
// at risk without any write), so it is never read from a stored column: every list, filter, count, export and
// dashboard selects this one expression. It is deriveProjectStatus (packages/domain/src/rules.ts, the documented
// definition) written over the project's rollup (services/projects/rollup.ts): released capital, the milestones'
// counts by status and the earliest due date of a milestone not yet verified. test/project-status.test.ts
// compares the two over generated cases.

/** The date the expression treats as today: a due date is past once it is past everywhere on earth. */
export const statusToday = (now: Date = new Date()) => earliestTodayIso(now);

/**
 * The status of the project row `project` (an alias or table name of `projects`) with its rollup row `rollup` (an
 * alias of `project_rollups`, left-joined: a project without one has no milestones and nothing released).
 */
export function projectStatusSql(project: string, rollup: string, today: string = statusToday()): SQL<ProjectStatus> {
  const p = sql.raw(project);
  const r = sql.raw(rollup);
  return sql<ProjectStatus>`(case
    when ${p}.total_capital > 0 and coalesce(${r}.released, 0) >= ${p}.total_capital then 'funded'
    when coalesce(${r}.milestones_rejected, 0) > 0 or coalesce(${r}.milestones_delayed, 0) > 0
      or ${r}.next_due_date < ${today}::date then 'at_risk'
    when coalesce(${r}.milestones_verified, 0) > 0 then 'verified'
    else 'pending_verification'
  end)`;
}
