import type { VerificationDto } from "@tranche/domain";

/**
 * The comments a decided milestone shows: its own, or else those of the decisions that decided it (a quorum's
 * approvals each carry theirs), so "No comments provided." is said only when nobody wrote any.
 */
export function decisionComments(v: VerificationDto): string {
  const own = v.comments?.trim();
  if (own) return own;
  const standing = v.quorum.decisions.filter((d) => !d.voidedAt);
  const round = Math.max(...standing.map((d) => d.round));
  const theirs = standing
    .filter((d) => d.round === round && d.comment?.trim())
    .map((d) => `${d.userName}: ${d.comment?.trim()}`);
  return theirs.join("\n") || "No comments provided.";
}
