import type { EvidenceDto } from "@tranche/domain";
import type { ServiceContext } from "../../context";
import { requireVisibleMilestone } from "../access";
import { evidenceList } from "./dto";

export async function listEvidence(ctx: ServiceContext, milestoneId: string): Promise<EvidenceDto[]> {
  const { milestone } = await requireVisibleMilestone(ctx.db, ctx.actor, milestoneId);
  return evidenceList(ctx.db, ctx.actor, milestone);
}
