import { type SQL, sql } from "drizzle-orm";
import type { SessionUser } from "../../context";

/**
 * SQL condition on `projects`: the projects the actor may see (admin: all; others: as a member). Written as the
 * member's own project ids (project_members_user_idx), so a query reads those projects by primary key and never
 * walks the projects the member cannot see, however many there are.
 */
export function visibleProjects(actor: SessionUser): SQL | undefined {
  if (actor.role === "admin") return undefined;
  return sql`projects.id = any(array(select pm.project_id from project_members pm where pm.user_id = ${actor.id}))`;
}
