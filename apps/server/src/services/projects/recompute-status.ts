import { deriveProjectStatus, type MilestoneStatus, type ProjectStatus } from "@tranche/domain";
import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { milestones, projects } from "../../db/schema";
import { toMoney } from "../../lib/money";
import { releasedSum } from "../releases/sums";
import { refreshProjectRollup } from "./rollup";
import { statusToday } from "./status";

/**
 * Re-derives a project's status from its milestones and releases (docs/domain.md "Milestone states", a project's
 * status) and stores it, with the project's
 * rollup. Call inside the transaction of every milestone or release change, after the change is written.
 */
export async function recomputeProjectStatus(tx: DbOrTx, projectId: string): Promise<ProjectStatus> {
  // One read: the project, what it released and its milestones' states.
  const [project] = await tx
    .select({
      totalCapital: projects.totalCapital,
      status: projects.status,
      // Qualified by hand: drizzle leaves a single-table select's columns unqualified inside sql``.
      disbursed: releasedSum(sql.raw("projects.id")),
      milestones: sql<{ status: MilestoneStatus; dueDate: string }[]>`(
        select coalesce(json_agg(json_build_object('status', m.status, 'dueDate', m.due_date)), '[]'::json)
        from ${milestones} m where m.project_id = projects.id)`,
    })
    .from(projects)
    .where(eq(projects.id, projectId));
  if (!project) throw new Error(`project ${projectId} vanished inside its own transaction`);
  const status = deriveProjectStatus({
    totalCapital: toMoney(project.totalCapital),
    disbursedCapital: toMoney(project.disbursed),
    milestones: project.milestones,
    today: statusToday(),
  });
  if (status !== project.status) {
    await tx.update(projects).set({ status, updatedAt: new Date() }).where(eq(projects.id, projectId));
  }
  await refreshProjectRollup(tx, projectId);
  return status;
}
