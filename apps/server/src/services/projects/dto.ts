import type { Currency, MemberRole, ProjectStatus, ProjectSummaryDto, TeamMemberDto } from "@tranche/domain";
import { remainingCapital } from "@tranche/domain";
import { asc, desc, eq, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { projectMembers, projectRollups, projects, users } from "../../db/schema";
import { naturalOrder } from "../../lib/keyset";
import { toMoney } from "../../lib/money";
import { projectStatusSql } from "./status";

/**
 * Released and settled capital and the milestone count come from the project's rollup (kept in the transaction of
 * every change: services/projects/rollup.ts), never stored on the project itself.
 */
const summaryColumns = () => ({
  id: projects.id,
  name: projects.name,
  description: projects.description,
  // Derived on read, as of today (./status.ts).
  status: projectStatusSql("projects", "project_rollups"),
  startDate: projects.startDate,
  endDate: projects.endDate,
  totalCapital: projects.totalCapital,
  disbursed: sql<string>`coalesce(${projectRollups.released}, 0)`,
  settled: sql<string>`coalesce(${projectRollups.settled}, 0)`,
  currency: projects.currency,
  location: projects.location,
  siteLatitude: projects.siteLatitude,
  siteLongitude: projects.siteLongitude,
  ownerId: sql<
    string | null
  >`(select pm.user_id from project_members pm where pm.project_id = projects.id and pm.role = 'owner' order by pm.created_at limit 1)`,
  milestoneCount: sql<number>`coalesce(${projectRollups.milestonesTotal}, 0)`,
  createdAt: projects.createdAt,
  updatedAt: projects.updatedAt,
});

/** Project summaries with their rollups; `extra` columns are selected beside them. */
export function selectProjectSummaries<E extends Record<string, SQL>>(db: DbOrTx, extra: E = {} as E) {
  return db
    .select({ ...summaryColumns(), ...extra })
    .from(projects)
    .leftJoin(projectRollups, eq(projectRollups.projectId, projects.id))
    .$dynamic();
}

type SummaryRow = Awaited<ReturnType<typeof selectProjectSummaries>>[number];

/** Projects matching `where`, newest first, as summaries with derived capital. */
export async function loadProjectSummaries(db: DbOrTx, where: SQL | undefined): Promise<ProjectSummaryDto[]> {
  const rows = await selectProjectSummaries(db).where(where).orderBy(desc(projects.createdAt), asc(projects.name));
  return rows.map(toProjectSummary);
}

export function toProjectSummary(row: SummaryRow): ProjectSummaryDto {
  const total = toMoney(row.totalCapital);
  const disbursed = toMoney(row.disbursed);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status as ProjectStatus,
    startDate: row.startDate,
    endDate: row.endDate,
    totalCapital: total,
    disbursedCapital: disbursed,
    settledCapital: toMoney(row.settled),
    remainingCapital: remainingCapital(total, disbursed),
    currency: row.currency as Currency,
    location: row.location,
    siteLatitude: row.siteLatitude,
    siteLongitude: row.siteLongitude,
    ownerId: row.ownerId,
    milestoneCount: Number(row.milestoneCount),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function loadProjectSummary(db: DbOrTx, projectId: string): Promise<ProjectSummaryDto | undefined> {
  const [summary] = await loadProjectSummaries(db, eq(projects.id, projectId));
  return summary;
}

/** Everyone on the project with their role there, in the order they joined. */
export async function loadTeam(db: DbOrTx, projectId: string): Promise<TeamMemberDto[]> {
  const rows = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      organization: users.organization,
      role: projectMembers.role,
      isLead: projectMembers.isLead,
    })
    .from(projectMembers)
    .innerJoin(users, eq(users.id, projectMembers.userId))
    .where(eq(projectMembers.projectId, projectId))
    .orderBy(asc(projectMembers.createdAt), naturalOrder(users.name));
  return rows.map((row) => ({ ...row, role: row.role as MemberRole }));
}
