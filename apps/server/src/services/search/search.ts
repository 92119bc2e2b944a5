// Header suggestions: projects, milestones and (for admins) people matching a term, a few of each.
import type { Role, SearchResultsDto } from "@tranche/domain";
import { and, eq, ilike, or } from "drizzle-orm";
import { z } from "zod";
import type { ServiceContext } from "../../context";
import { milestones, projects, users } from "../../db/schema";
import { naturalOrder } from "../../lib/keyset";
import { containsPattern } from "../projects/list";
import { visibleProjects } from "../projects/visibility";

export const SUGGESTIONS_PER_KIND = 5;

export const searchQuery = z.strictObject({
  q: z
    .string({ error: "Type at least 2 characters to search." })
    .trim()
    .min(2, { error: "Type at least 2 characters to search." })
    .max(200, { error: "Search term must be at most 200 characters." }),
});

export async function search(ctx: ServiceContext, input: z.output<typeof searchQuery>): Promise<SearchResultsDto> {
  const pattern = containsPattern(input.q);
  const visible = visibleProjects(ctx.actor);
  const [projectRows, milestoneRows, people] = await Promise.all([
    ctx.db
      .select({ id: projects.id, name: projects.name, location: projects.location })
      .from(projects)
      .where(and(visible, or(ilike(projects.name, pattern), ilike(projects.location, pattern))))
      .orderBy(naturalOrder(projects.name))
      .limit(SUGGESTIONS_PER_KIND),
    ctx.db
      .select({ id: milestones.id, title: milestones.title, projectName: projects.name })
      .from(milestones)
      .innerJoin(projects, eq(projects.id, milestones.projectId))
      .where(and(visible, ilike(milestones.title, pattern)))
      .orderBy(naturalOrder(milestones.title))
      .limit(SUGGESTIONS_PER_KIND),
    ctx.actor.role === "admin"
      ? ctx.db
          .select({ id: users.id, name: users.name, email: users.email, role: users.role })
          .from(users)
          .where(or(ilike(users.name, pattern), ilike(users.email, pattern)))
          .orderBy(naturalOrder(users.name))
          .limit(SUGGESTIONS_PER_KIND)
      : Promise.resolve([]),
  ]);
  return {
    projects: projectRows,
    milestones: milestoneRows,
    people: people.map((p) => ({ ...p, role: p.role as Role | null })),
  };
}
