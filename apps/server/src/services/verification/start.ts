import type { SeenState, VerificationDto } from "@tranche/domain";
import type { ServiceContext } from "../../context";
import { membersIn } from "../access";
import { transitionMilestone } from "../milestones/transition";
import { requireEligibleVerifier, requireStatus } from "./access";
import { toVerificationDto } from "./dto";
import { recordTransition, withLockedMilestone } from "./locked";
import { requireSeenState } from "./seen";

/**
 * pending → in_verification (start) or delayed → in_verification (resume); the actor becomes its verifier. With the
 * `round` the verifier saw, a milestone that has since moved to another round is refused (409 stale_round).
 */
export function startVerification(
  ctx: ServiceContext,
  milestoneId: string,
  seen: Pick<SeenState, "round"> = {},
): Promise<VerificationDto> {
  return withLockedMilestone(ctx, milestoneId, async (tx, access) => {
    requireEligibleVerifier(access, ctx.actor);
    // Started already by this verifier (a double click, a retried request): the start stands, answer its state.
    if (access.milestone.status === "in_verification" && access.milestone.verifierId === ctx.actor.id) {
      requireSeenState(access, seen);
      return toVerificationDto(tx, access, ctx.actor);
    }
    requireSeenState(access, seen);
    const from = requireStatus(access, ["pending", "delayed"], "started");
    const now = new Date();
    const updated = await transitionMilestone(
      tx,
      access.milestone,
      from === "delayed" ? "resume" : "start",
      { verifierId: ctx.actor.id, startedAt: now },
      now,
    );
    return recordTransition(
      tx,
      ctx,
      access,
      updated,
      { action: from === "delayed" ? "milestone.verification_resumed" : "milestone.verification_started" },
      {
        recipients: membersIn(access, ["owner", "investor"]),
        title: "Verification started",
        message: `${ctx.actor.name} started verifying "${updated.title}" (${access.project.name}).`,
        category: "verification",
      },
    );
  });
}
