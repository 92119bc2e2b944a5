import { type SQL, sql } from "drizzle-orm";
import type { SessionUser } from "../../context";

/** SQL condition on `projects`: the projects the actor may see (admin: all; others: as a member). */
export function visibleProjects(actor: SessionUser): SQL | undefined {
  if (actor.role === "admin") return undefined;
  return sql`exists (select 1 from project_members pm where pm.project_id = projects.id and pm.user_id = ${actor.id})`;
}
