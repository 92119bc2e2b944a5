import type { SessionUser } from "../../context";
import type { Tx } from "../../db/client";
import type { MilestoneRow, ProjectRow } from "../access";
import { publishEvent } from "../outbox/outbox";

type DecisionType = "milestone.verified" | "milestone.rejected";
type Decided = { milestone: MilestoneRow; project: ProjectRow; verifier: SessionUser };

/** milestone.verified / milestone.rejected for integrations: the event's type and data. */
export function decisionEvent(
  type: DecisionType,
  decided: Decided,
): { type: DecisionType; data: Record<string, unknown> } {
  const { milestone, project, verifier } = decided;
  return {
    type,
    data: {
      milestone: { id: milestone.id, name: milestone.title },
      project: { id: project.id, name: project.name },
      verifier: { id: verifier.id, name: verifier.name },
      decidedAt: (milestone.verificationDate ?? new Date()).toISOString(),
      ...(milestone.comments ? { comment: milestone.comments } : {}),
    },
  };
}

/** Publishes decisionEvent in the decision's transaction. */
export function publishDecision(tx: Tx, type: DecisionType, decided: Decided): Promise<string> {
  const { data } = decisionEvent(type, decided);
  return publishEvent(tx, type, data);
}
