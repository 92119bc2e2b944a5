import {
  type MilestoneCounts,
  type MilestoneDto,
  PROJECT_DELETE_LOCKED,
  PROJECT_DELETE_VERIFYING,
  type ProjectDetailDto,
  policyStatement,
} from "@tranche/domain";
import { eq } from "drizzle-orm";
import type { CallerContext } from "../../context";
import { type DbOrTx, readAll } from "../../db/client";
import { milestones, projects } from "../../db/schema";
import { notFound } from "../../errors";
import { type ProjectAccess, requireVisibleProject } from "../access";
import { loadMilestones } from "../milestones/dto";
import { currentRule } from "../release-policy/rule";
import { loadProjectSummary, loadTeam } from "./dto";

export function milestoneCounts(list: Pick<MilestoneDto, "status">[]): MilestoneCounts {
  const count = (...statuses: string[]) => list.filter((m) => statuses.includes(m.status)).length;
  return {
    total: list.length,
    verified: count("verified"),
    pending: count("pending", "in_verification"),
    delayedOrRejected: count("delayed", "rejected"),
  };
}

/** The detail view of a project the caller may see: team, milestones, counts and what the caller may do. */
export async function getProject(ctx: CallerContext, projectId: string): Promise<ProjectDetailDto> {
  if (ctx.caller.kind === "token") {
    // An API token with projects:read reads any project, and may change nothing.
    const [project] = await ctx.db.select().from(projects).where(eq(projects.id, projectId));
    if (!project) throw notFound("Project");
    return projectDetail(ctx.db, { project, roles: [], isAdmin: false, isOwner: false });
  }
  const access = await requireVisibleProject(ctx.db, ctx.caller.user, projectId);
  return projectDetail(ctx.db, access);
}

export async function projectDetail(db: DbOrTx, access: ProjectAccess): Promise<ProjectDetailDto> {
  const projectId = access.project.id;
  const [summary, team, list, rule] = await readAll(db, [
    () => loadProjectSummary(db, projectId),
    () => loadTeam(db, projectId),
    () => loadMilestones(db, eq(milestones.projectId, projectId)),
    () => currentRule(db, projectId),
  ] as const);
  if (!summary) throw new Error(`project ${projectId} vanished while being read`);
  const manages = access.isOwner || access.isAdmin;
  const hasRelease = summary.disbursedCapital > 0 || list.some((m) => m.status === "verified");
  const verifying = list.some((m) => m.status === "in_verification");
  const owner = team.find((m) => m.role === "owner") ?? null;
  const verifiers = team.filter((m) => m.role === "verifier");
  return {
    ...summary,
    owner,
    investors: team.filter((m) => m.role === "investor"),
    verifiers,
    milestones: list,
    counts: milestoneCounts(list),
    releasePolicy: { version: rule.version, statement: policyStatement(rule, verifiers.length, summary.currency) },
    permissions: {
      canEdit: manages,
      canDelete: manages && !hasRelease && !verifying,
      canManageMilestones: manages,
      canSetMilestoneStatus: access.isOwner,
      canAssign: access.isAdmin,
      reasons: !manages
        ? {}
        : hasRelease
          ? { delete: PROJECT_DELETE_LOCKED }
          : verifying
            ? { delete: PROJECT_DELETE_VERIFYING }
            : {},
    },
  };
}
