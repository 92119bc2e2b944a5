import type { VerificationDto } from "@tranche/domain";
import type { ServiceContext } from "../../context";
import { requireVisibleMilestone } from "../access";
import { toVerificationDto } from "./dto";

/** The verification state of a milestone the caller can see. */
export async function getVerification(ctx: ServiceContext, milestoneId: string): Promise<VerificationDto> {
  const access = await requireVisibleMilestone(ctx.db, ctx.actor, milestoneId);
  return toVerificationDto(ctx.db, access, ctx.actor);
}
