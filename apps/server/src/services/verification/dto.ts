import {
  CHECKLIST_ITEMS,
  type Checklist,
  type ChecklistNotes,
  type Currency,
  EMPTY_CHECKLIST,
  type MilestoneStatus,
  type VerificationDto,
} from "@tranche/domain";
import { and, eq } from "drizzle-orm";
import type { SessionUser } from "../../context";
import type { DbOrTx } from "../../db/client";
import { users, verificationReports } from "../../db/schema";
import { toMoney } from "../../lib/money";
import type { MilestoneAccess } from "../access";
import { progressOf, verificationPermissions } from "./access";
import { type RoundState, roundState, toQuorumDto } from "./quorum";

export function toChecklist(value: unknown): Checklist {
  const stored = (value && typeof value === "object" ? value : {}) as Partial<Checklist>;
  return Object.fromEntries(
    Object.keys(EMPTY_CHECKLIST).map((key) => [key, stored[key as keyof Checklist] === true]),
  ) as Checklist;
}

/** The stored notes, only the known items with text. */
export function toChecklistNotes(value: unknown): ChecklistNotes {
  const stored = (value && typeof value === "object" ? value : {}) as Record<string, unknown>;
  return Object.fromEntries(
    CHECKLIST_ITEMS.flatMap(({ key }) => (typeof stored[key] === "string" && stored[key] ? [[key, stored[key]]] : [])),
  ) as ChecklistNotes;
}

/**
 * The dialog's DTO for a milestone as it now stands (pass the updated row in `access`). `decidedNow`: its decision
 * was made in the caller's transaction, so no report on it can exist yet (one is written after, by its verifier).
 * `round`: the round as it now stands, when the caller has it (else it is read).
 */
export async function toVerificationDto(
  db: DbOrTx,
  access: MilestoneAccess,
  actor: SessionUser,
  { decidedNow = false, round }: { decidedNow?: boolean; round?: RoundState } = {},
): Promise<VerificationDto> {
  const { milestone, project } = access;
  // The caller is most often the verifier (their own decision's answer): their name is at hand.
  let verifierName: string | null = milestone.verifierId === actor.id ? actor.name : null;
  if (milestone.verifierId && verifierName === null) {
    const [row] = await db.select({ name: users.name }).from(users).where(eq(users.id, milestone.verifierId));
    verifierName = row?.name ?? null;
  }
  const checklist = toChecklist(milestone.checklist);
  const state = round ?? (await roundState(db, milestone));
  const decided = milestone.status === "verified" || milestone.status === "rejected";
  const [report] =
    decided && milestone.verificationDate && !decidedNow
      ? await db
          .select({
            id: verificationReports.id,
            createdAt: verificationReports.createdAt,
            updatedAt: verificationReports.updatedAt,
          })
          .from(verificationReports)
          .where(
            and(
              eq(verificationReports.milestoneId, milestone.id),
              eq(verificationReports.decidedAt, milestone.verificationDate),
            ),
          )
      : [];
  return {
    milestoneId: milestone.id,
    projectId: project.id,
    projectName: project.name,
    currency: project.currency as Currency,
    title: milestone.title,
    description: milestone.description,
    dueDate: milestone.dueDate,
    capitalAmount: toMoney(milestone.capitalAmount),
    status: milestone.status as MilestoneStatus,
    verifierId: milestone.verifierId,
    verifierName,
    startedAt: milestone.startedAt?.toISOString() ?? null,
    verificationDate: milestone.verificationDate?.toISOString() ?? null,
    comments: milestone.comments,
    checklist,
    checklistNotes: toChecklistNotes(milestone.checklistNotes),
    progress: progressOf(milestone.status, checklist),
    round: milestone.verificationRound,
    evidenceVersion: milestone.evidenceVersion,
    report: report
      ? { id: report.id, createdAt: report.createdAt.toISOString(), updatedAt: report.updatedAt.toISOString() }
      : null,
    quorum: toQuorumDto(state, project.currency),
    dispute: state.dispute,
    permissions: verificationPermissions(access, actor, state),
  };
}
