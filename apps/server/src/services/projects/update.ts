import { formatMoney, type ProjectDetailDto, SITE_PAIR_MESSAGE, type updateProjectSchema } from "@tranche/domain";
import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { ServiceContext } from "../../context";
import { queryRows } from "../../db/client";
import { projects } from "../../db/schema";
import { AppError, businessRule, forbidden } from "../../errors";
import { moneyParam, toMoney } from "../../lib/money";
import { requireVisibleProject } from "../access";
import { appendAudit } from "../audit/append";
import { releasedSum } from "../releases/sums";
import { projectDetail } from "./get";
import { recomputeProjectStatus } from "./recompute-status";

type Input = z.output<typeof updateProjectSchema>;

/** The owner or an admin edits a project; total capital may not drop below its milestones or its releases. */
export async function updateProject(ctx: ServiceContext, projectId: string, input: Input): Promise<ProjectDetailDto> {
  return ctx.db.transaction(async (tx) => {
    const access = await requireVisibleProject(tx, ctx.actor, projectId, { lock: true });
    if (!access.isOwner && !access.isAdmin) throw forbidden("Only the project's owner or an admin can edit it.");
    const { project } = access;

    const startDate = input.startDate === undefined ? project.startDate : input.startDate;
    const endDate = input.endDate === undefined ? project.endDate : input.endDate;
    if (startDate && endDate && endDate < startDate) {
      throw new AppError("invalid_input", "endDate: End date must be on or after the start date.", {
        endDate: "End date must be on or after the start date.",
      });
    }

    // One coordinate alone moves that coordinate of the stored pair; the pair must still be whole (or empty).
    const siteLatitude = input.siteLatitude === undefined ? project.siteLatitude : input.siteLatitude;
    const siteLongitude = input.siteLongitude === undefined ? project.siteLongitude : input.siteLongitude;
    if ((siteLatitude === null) !== (siteLongitude === null)) {
      const field = siteLatitude === null ? "siteLatitude" : "siteLongitude";
      throw new AppError("invalid_input", `${field}: ${SITE_PAIR_MESSAGE}`, { [field]: SITE_PAIR_MESSAGE });
    }

    const [sums] = await queryRows<{ planned: string; disbursed: string; releases: number; verifying: number }>(
      tx,
      sql`select
            coalesce((select sum(capital_amount) from milestones where project_id = ${projectId}), 0) as planned,
            ${releasedSum(sql`${projectId}::uuid`)} as disbursed,
            (select count(*)::int from disbursements where project_id = ${projectId}) as releases,
            (select count(*)::int from milestones
              where project_id = ${projectId} and status = 'in_verification') as verifying`,
    );
    const planned = toMoney(sums.planned);
    const disbursed = toMoney(sums.disbursed);
    const currency = input.currency ?? project.currency;
    if (input.totalCapital !== undefined) {
      if (input.totalCapital < planned) {
        throw businessRule(
          `Total capital cannot be less than the sum of the milestone amounts (${formatMoney(planned, currency)}).`,
          { milestoneSum: planned },
        );
      }
      if (input.totalCapital < disbursed) {
        throw businessRule(
          `Total capital cannot be less than the capital already disbursed (${formatMoney(disbursed, currency)}).`,
          { disbursed },
        );
      }
    }
    if (input.currency && input.currency !== project.currency) {
      // Any release record, even a cancelled one, was instructed in the project's currency (the database holds
      // this too: migration 0033).
      if (Number(sums.releases) > 0) throw businessRule("The currency cannot change once capital has been released.");
      // A verifier checks, and approves, amounts in the currency the milestone shows: an approval recorded in one
      // currency must not be released in another. (A verification started while this runs is caught by the
      // foreign key: its release would name a currency the project no longer has.)
      if (Number(sums.verifying) > 0) {
        throw businessRule("The currency cannot change while a milestone is in verification.");
      }
    }

    const changes = {
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(input.description === undefined ? {} : { description: input.description }),
      ...(input.location === undefined ? {} : { location: input.location }),
      ...(input.siteLatitude === undefined ? {} : { siteLatitude: input.siteLatitude }),
      ...(input.siteLongitude === undefined ? {} : { siteLongitude: input.siteLongitude }),
      ...(input.totalCapital === undefined ? {} : { totalCapital: moneyParam(input.totalCapital) }),
      ...(input.currency === undefined ? {} : { currency: input.currency }),
      ...(input.startDate === undefined ? {} : { startDate: input.startDate }),
      ...(input.endDate === undefined ? {} : { endDate: input.endDate }),
    };
    if (Object.keys(changes).length > 0) {
      await tx
        .update(projects)
        .set({ ...changes, updatedAt: new Date() })
        .where(eq(projects.id, projectId));
      const before = Object.fromEntries(Object.keys(changes).map((key) => [key, project[key as keyof typeof changes]]));
      await appendAudit(tx, {
        actorId: ctx.actor.id,
        action: "project.updated",
        entityType: "project",
        entityId: projectId,
        projectId,
        before,
        after: changes,
      });
      await recomputeProjectStatus(tx, projectId);
    }
    const [fresh] = await tx.select().from(projects).where(eq(projects.id, projectId));
    return projectDetail(tx, { ...access, project: fresh });
  });
}
