import type { MilestoneStatus, SeenState } from "@tranche/domain";
import { AppError } from "../../errors";
import type { MilestoneAccess } from "../access";

/**
 * A client that acts late (the field app's offline queue) says which verification round — and, for a decision,
 * which release-policy version — it saw. When the milestone has moved on since (resubmitted, released in part,
 * reassigned, its policy changed), the action is refused with 409 `stale_round` and nothing is applied: the
 * verifier looks again and decides again. Without them the action is checked as it always was.
 */
export function requireSeenState(access: MilestoneAccess, seen: SeenState, policyVersion?: number): void {
  const { milestone } = access;
  const status = milestone.status as MilestoneStatus;
  const details = {
    round: { seen: seen.round ?? null, current: milestone.verificationRound },
    policyVersion: { seen: seen.policyVersion ?? null, current: policyVersion ?? null },
    status,
  };
  if (seen.round !== undefined && seen.round !== milestone.verificationRound) {
    throw new AppError(
      "stale_round",
      `"${milestone.title}" changed since you saw it: it is now in verification round ${milestone.verificationRound} (${status.replace("_", " ")}), not round ${seen.round}. Look at it again before you act.`,
      details,
    );
  }
  if (seen.policyVersion !== undefined && policyVersion !== undefined && seen.policyVersion !== policyVersion) {
    throw new AppError(
      "stale_round",
      `The release policy of "${milestone.title}" changed since you saw it (version ${seen.policyVersion}, now ${policyVersion}). Look at it again before you decide.`,
      details,
    );
  }
}
