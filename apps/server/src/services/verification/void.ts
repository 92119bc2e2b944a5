import { and, eq, isNotNull, isNull, or } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { milestoneDisputes, verificationDecisions } from "../../db/schema";

/** A round still open: a milestone in verification and its current round. */
export interface OpenRound {
  id: string;
  round: number;
}

export interface VoidedDecision {
  milestoneId: string;
  userId: string;
  kind: "approve" | "reject" | "countersign";
}

/**
 * Voids the live decisions of open rounds whose ground changed under them: the release policy they were made under
 * ('policy', ADR 034), or the evidence they were made on ('evidence', ADR 037). The milestones stay in verification
 * in the same round and their deciders decide again. A dispute closed by a decision voided here is open again, for
 * its verifier to decide anew. Resolves to the decisions voided, by milestone.
 */
export async function voidOpenDecisions(
  tx: Tx,
  open: OpenRound[],
  reason: "policy" | "evidence",
  now = new Date(),
): Promise<VoidedDecision[]> {
  if (open.length === 0) return [];
  const inRound = (m: OpenRound) =>
    and(eq(verificationDecisions.milestoneId, m.id), eq(verificationDecisions.round, m.round));
  const voided = await tx
    .update(verificationDecisions)
    .set({ voidedAt: now, voidReason: reason })
    .where(and(isNull(verificationDecisions.voidedAt), or(...open.map(inRound))))
    .returning({
      milestoneId: verificationDecisions.milestoneId,
      userId: verificationDecisions.userId,
      kind: verificationDecisions.kind,
    });
  const reopen = open.filter((m) => voided.some((d) => d.milestoneId === m.id));
  if (reopen.length > 0) {
    await tx
      .update(milestoneDisputes)
      .set({ outcome: null, closedAt: null })
      .where(
        and(
          isNotNull(milestoneDisputes.closedAt),
          or(...reopen.map((m) => and(eq(milestoneDisputes.milestoneId, m.id), eq(milestoneDisputes.round, m.round)))),
        ),
      );
  }
  return voided.sort((a, b) => a.milestoneId.localeCompare(b.milestoneId) || a.userId.localeCompare(b.userId));
}
