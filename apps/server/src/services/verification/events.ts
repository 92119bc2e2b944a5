import type { SessionUser } from "../../context";
import type { Tx } from "../../db/client";
import type { MilestoneRow, ProjectRow } from "../access";
import { publishEvent } from "../outbox/outbox";

/** milestone.verified / milestone.rejected for integrations, in the decision's transaction. */
export function publishDecision(
  tx: Tx,
  type: "milestone.verified" | "milestone.rejected",
  decided: { milestone: MilestoneRow; project: ProjectRow; verifier: SessionUser },
): Promise<string> {
  const { milestone, project, verifier } = decided;
  return publishEvent(tx, type, {
    milestone: { id: milestone.id, name: milestone.title },
    project: { id: project.id, name: project.name },
    verifier: { id: verifier.id, name: verifier.name },
    decidedAt: (milestone.verificationDate ?? new Date()).toISOString(),
    ...(milestone.comments ? { comment: milestone.comments } : {}),
  });
}
