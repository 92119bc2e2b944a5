import type { createProjectSchema, ProjectDetailDto } from "@tranche/domain";
import type { z } from "zod";
import type { ServiceContext } from "../../context";
import { projectMembers, projects } from "../../db/schema";
import { forbidden } from "../../errors";
import { moneyParam } from "../../lib/money";
import { appendAudit } from "../audit/append";
import { publishEvent } from "../outbox/outbox";
import { getProject } from "./get";
import { refreshProjectRollup } from "./rollup";

/** A project_owner or admin creates a project; they become its owner and it starts pending_verification. */
export async function createProject(
  ctx: ServiceContext,
  input: z.output<typeof createProjectSchema>,
): Promise<ProjectDetailDto> {
  const { actor } = ctx;
  if (actor.role !== "project_owner" && actor.role !== "admin") {
    throw forbidden("Only project owners and admins can create projects.");
  }
  const id = await ctx.db.transaction(async (tx) => {
    const [project] = await tx
      .insert(projects)
      .values({
        name: input.name,
        description: input.description,
        location: input.location,
        siteLatitude: input.siteLatitude ?? null,
        siteLongitude: input.siteLongitude ?? null,
        totalCapital: moneyParam(input.totalCapital),
        currency: input.currency,
        startDate: input.startDate ?? null,
        endDate: input.endDate ?? null,
        status: "pending_verification",
        createdBy: actor.id,
      })
      .returning({ id: projects.id });
    await tx.insert(projectMembers).values({ projectId: project.id, userId: actor.id, role: "owner" });
    await appendAudit(tx, {
      actorId: actor.id,
      action: "project.created",
      entityType: "project",
      entityId: project.id,
      projectId: project.id,
      after: { ...input, status: "pending_verification" },
    });
    await refreshProjectRollup(tx, project.id);
    await publishEvent(tx, "project.created", {
      project: {
        id: project.id,
        name: input.name,
        totalCapital: moneyParam(input.totalCapital),
        currency: input.currency,
      },
      owner: { id: actor.id, name: actor.name },
    });
    return project.id;
  });
  return getProject({ db: ctx.db, env: ctx.env, caller: { kind: "user", user: ctx.actor } }, id);
}
