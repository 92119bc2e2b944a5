import type { ReleaseDto } from "@tranche/domain";
import { eq } from "drizzle-orm";
import type { CallerContext } from "../../context";
import { disbursements } from "../../db/schema";
import { AppError, conflict } from "../../errors";
import { requireReleaseWriter } from "./access";
import { loadRelease } from "./dto";
import { recordReleaseChange, requireCurrentInstruction, requireReleaseStatus, withLockedRelease } from "./transition";

export interface SettleResult {
  release: ReleaseDto;
  /** The release was already settled with this reference: nothing changed. */
  replayed: boolean;
}

/**
 * instructed → settled with the custodian's payment reference. Reporting the same reference again is an
 * idempotent success (a custodian retrying after a lost answer); another reference is a conflict, and so is a report
 * naming an instruction the release has since replaced.
 */
export function settleRelease(
  ctx: CallerContext,
  releaseId: string,
  input: { instructionId?: string; reference: string; settledAt?: string },
): Promise<SettleResult> {
  requireReleaseWriter(ctx.caller);
  return withLockedRelease(ctx, releaseId, async (tx, release) => {
    await requireCurrentInstruction(tx, release, input.instructionId);
    if (release.status === "settled") {
      if (release.settlementReference !== input.reference) {
        throw conflict("Release is already settled with a different reference.", {
          status: release.status,
          reference: release.settlementReference,
        });
      }
      const dto = await loadRelease(tx, eq(disbursements.id, release.id), ctx.caller);
      if (!dto) throw new Error(`release ${release.id} vanished inside its own transaction`);
      return { release: dto, replayed: true };
    }
    requireReleaseStatus(release, ["instructed"], "settled");
    const settledAt = input.settledAt ? new Date(input.settledAt) : new Date();
    requireSettledAfterInstruction(settledAt, release.instructedAt);
    const dto = await recordReleaseChange(
      tx,
      ctx,
      release,
      {
        status: "settled",
        settlementReference: input.reference,
        settledAt,
      },
      {
        action: "release.settled",
        event: "release.settled",
        notice: {
          title: "Capital settled",
          message: (amount, milestone, project) =>
            `${amount} for "${milestone}" (${project}) was paid by the custodian (reference ${input.reference}).`,
        },
      },
    );
    return { release: dto, replayed: false };
  });
}

/** How far the custodian's clock may run behind ours. */
const CLOCK_SKEW_MS = 5 * 60_000;

/** A payment is not dated before it was asked for (the custodian's clock may be a few minutes behind). */
function requireSettledAfterInstruction(settledAt: Date, instructedAt: Date): void {
  if (settledAt.getTime() >= instructedAt.getTime() - CLOCK_SKEW_MS) return;
  // Named as every refused field is: "field: problem", the problem alone in details.
  const problem = `settledAt cannot be before the release was instructed (${instructedAt.toISOString()}).`;
  throw new AppError("invalid_input", `settledAt: ${problem}`, { settledAt: problem });
}
