// Who may see what (docs/domain.md "People and roles"): admins see everything; everyone else sees a project
// only as one of its members. What the caller may not see is reported as not found (404), never 403.
import type { MemberRole } from "@tranche/domain";
import { and, eq, sql } from "drizzle-orm";
import type { SessionUser } from "../context";
import type { DbOrTx } from "../db/client";
import { milestones, projectMembers, projects, users } from "../db/schema";
import { forbidden, notFound } from "../errors";

/** A locked action met a change of its actor's role: refused under the role the session was opened with. */
export const ROLE_CHANGED = "Your role has just changed; nothing was saved. Reload the page to continue.";

export type ProjectRow = typeof projects.$inferSelect;
export type MilestoneRow = typeof milestones.$inferSelect;

export async function memberRoles(db: DbOrTx, userId: string, projectId: string): Promise<MemberRole[]> {
  const rows = await db
    .select({ role: projectMembers.role })
    .from(projectMembers)
    .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, userId)));
  return rows.map((r) => r.role as MemberRole);
}

export interface ProjectAccess {
  project: ProjectRow;
  roles: MemberRole[];
  isAdmin: boolean;
  isOwner: boolean;
}

/**
 * The actor's roles in the project of the statement (`projects` in scope). The project's id is named in full: drizzle
 * leaves a one-table select's columns unqualified, and a bare "id" inside the subquery would name a member row's own
 * if that table ever had one.
 */
const rolesIn = (actor: SessionUser) =>
  sql<MemberRole[]>`array(select pm.role from ${projectMembers} pm
    where pm.project_id = "projects"."id" and pm.user_id = ${actor.id})`;

/** What the actor may do in a project, given their roles in it; null when they may not see it. */
function accessTo(actor: SessionUser, project: ProjectRow, roles: MemberRole[]): ProjectAccess | null {
  const isAdmin = actor.role === "admin";
  if (!isAdmin && roles.length === 0) return null;
  return { project, roles, isAdmin, isOwner: roles.includes("owner") };
}

/** The project if the actor may see it, else 404. Pass `lock` inside a transaction to lock the row. */
export async function requireVisibleProject(
  db: DbOrTx,
  actor: SessionUser,
  projectId: string,
  options: { lock?: boolean } = {},
): Promise<ProjectAccess> {
  // The project and the actor's roles in it, in one statement.
  const query = db
    .select({ project: projects, roles: rolesIn(actor) })
    .from(projects)
    .where(eq(projects.id, projectId));
  const [row] = options.lock ? await query.for("update", { of: projects }) : await query;
  const access = row && accessTo(actor, row.project, row.roles);
  if (!access) throw notFound("Project");
  return access;
}

/** A milestone with what the actor may do in its project. */
export interface MilestoneView extends ProjectAccess {
  milestone: MilestoneRow;
}

export interface MilestoneAccess extends MilestoneView {
  /** The project's members as read with the milestone (who a transition of it tells). */
  members: { userId: string; role: MemberRole }[];
}

/**
 * The milestone (and its project) if the actor may see it, else 404. `lock` locks the project's row (key-share, or
 * for update with "project") and then the milestone's.
 */
export async function requireVisibleMilestone(
  db: DbOrTx,
  actor: SessionUser,
  milestoneId: string,
  options: { lock?: boolean | "project" } = {},
): Promise<MilestoneAccess> {
  if (options.lock) {
    // Who decides on a project changes under its row's lock (a release policy, a member added or removed, a role
    // changed: each takes it FOR UPDATE). A key-share lock on it, taken before the milestone's, makes a decision
    // wait for such a change and then read it below, and makes the change wait for a decision already under way.
    // It does not conflict with a project's own updates (its status), so decisions on one project still run side by
    // side; taken first, the order of locks is the project's, then the milestone's, as the changes take them.
    // `lock: "project"` takes the project's row for update instead, for an action that will change it (an edit of a
    // milestone's amount checks the project's capital): taken later, after a key-share lock, two such edits on one
    // project would each wait for the other.
    const mode = options.lock === "project" ? sql`for update` : sql`for key share`;
    await db.execute(
      sql`select 1 from ${projects} where ${projects.id} = (select ${milestones.projectId} from ${milestones}
          where ${milestones.id} = ${milestoneId}) ${mode}`,
    );
  }
  // The milestone, its project and its members (the actor's roles among them), in one statement; and the actor's
  // role as it stands now: the session read it before this transaction, and a change that committed while the
  // lock was awaited must not be acted on under the role it replaced.
  const query = db
    .select({
      milestone: milestones,
      project: projects,
      members: sql<{ userId: string; role: MemberRole }[]>`(
        select coalesce(json_agg(json_build_object('userId', pm.user_id, 'role', pm.role)), '[]'::json)
        from ${projectMembers} pm where pm.project_id = ${projects.id})`,
      actorRole: sql<string | null>`(select ${users.role} from ${users} where ${users.id} = ${actor.id})`,
    })
    .from(milestones)
    .innerJoin(projects, eq(projects.id, milestones.projectId))
    .where(eq(milestones.id, milestoneId));
  const [row] = options.lock ? await query.for("update", { of: milestones }) : await query;
  if (options.lock && row && row.actorRole !== actor.role) throw forbidden(ROLE_CHANGED);
  const roles = row?.members.filter((m) => m.userId === actor.id).map((m) => m.role) ?? [];
  const access = row && accessTo(actor, row.project, roles);
  if (!access) throw notFound("Milestone");
  return { ...access, milestone: row.milestone, members: row.members };
}

/** User ids of the members in the given roles of a milestone's project, as read with it (for notifications). */
export function membersIn(access: MilestoneAccess, roles: MemberRole[]): string[] {
  return access.members.filter((m) => roles.includes(m.role)).map((m) => m.userId);
}

/**
 * Who hears of a milestone its verifier worked on: that verifier while they are still one of the project's verifiers,
 * else (`orEvery`) the project's verifiers. A verifier removed from the project keeps the milestone's `verifier_id`
 * (its record names them) but may no longer read it, so is told nothing more about it.
 */
export function milestoneVerifiers(access: MilestoneAccess, verifierId: string | null, orEvery = false): string[] {
  const verifiers = membersIn(access, ["verifier"]);
  if (verifierId && verifiers.includes(verifierId)) return [verifierId];
  return orEvery ? verifiers : [];
}

/** User ids of a project's members in the given roles (for notifications). */
export async function memberIds(db: DbOrTx, projectId: string, roles: MemberRole[]): Promise<string[]> {
  const rows = await db
    .select({ userId: projectMembers.userId, role: projectMembers.role })
    .from(projectMembers)
    .where(eq(projectMembers.projectId, projectId));
  return rows.filter((r) => roles.includes(r.role as MemberRole)).map((r) => r.userId);
}
