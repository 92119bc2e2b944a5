import { formatMoney, type MilestoneStatus, type SeenState, toCents } from "@tranche/domain";
import { AppError } from "../../errors";
import type { MilestoneAccess } from "../access";

/**
 * A client that acts late (the field app's offline queue, a page left open) says which verification round, which
 * evidence version — and, for a decision, which release-policy version — it saw. When the milestone has moved on
 * since (resubmitted, released in part, reassigned, a file added or removed, its policy changed, an earlier release
 * cancelled so that more is open), the action is refused with 409 `stale_round` and nothing is applied: the decider
 * looks again and decides again (ADR 037). Without them the action is checked as it always was. `current` is what a
 * decision is judged against now: the policy's version and, for a decision that releases, the amount open.
 */
export function requireSeenState(
  access: MilestoneAccess,
  seen: SeenState,
  current: { policyVersion?: number; openAmount?: number } = {},
): void {
  const { policyVersion, openAmount } = current;
  const { milestone } = access;
  const status = milestone.status as MilestoneStatus;
  const details = {
    round: { seen: seen.round ?? null, current: milestone.verificationRound },
    policyVersion: { seen: seen.policyVersion ?? null, current: policyVersion ?? null },
    evidenceVersion: { seen: seen.evidenceVersion ?? null, current: milestone.evidenceVersion },
    openAmount: { seen: seen.openAmount ?? null, current: openAmount ?? null },
    status,
  };
  if (seen.round !== undefined && seen.round !== milestone.verificationRound) {
    throw new AppError(
      "stale_round",
      `"${milestone.title}" changed since you saw it: it is now in verification round ${milestone.verificationRound} (${status.replace("_", " ")}), not round ${seen.round}. Look at it again before you act.`,
      details,
    );
  }
  if (seen.evidenceVersion !== undefined && seen.evidenceVersion !== milestone.evidenceVersion) {
    throw new AppError(
      "stale_round",
      `The evidence of "${milestone.title}" changed since you saw it: a file was added or removed. Look at it again before you act.`,
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
  if (seen.openAmount !== undefined && openAmount !== undefined && toCents(seen.openAmount) !== toCents(openAmount)) {
    const currency = access.project.currency;
    throw new AppError(
      "stale_round",
      `The amount open on "${milestone.title}" changed since you saw it (${formatMoney(seen.openAmount, currency)}, now ${formatMoney(openAmount, currency)}). Look at it again before you decide.`,
      details,
    );
  }
}
