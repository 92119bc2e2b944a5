import {
  type Checklist,
  EMPTY_CHECKLIST,
  type MilestoneDto,
  type MilestoneStatus,
  verificationProgress,
} from "@tranche/domain";
import { asc, eq, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { milestones, users } from "../../db/schema";
import { toMoney } from "../../lib/money";

export const milestoneColumns = {
  id: milestones.id,
  projectId: milestones.projectId,
  title: milestones.title,
  description: milestones.description,
  dueDate: milestones.dueDate,
  capitalAmount: milestones.capitalAmount,
  status: milestones.status,
  verifierId: milestones.verifierId,
  verifierName: users.name,
  verificationDate: milestones.verificationDate,
  startedAt: milestones.startedAt,
  comments: milestones.comments,
  checklist: milestones.checklist,
  evidenceCount: sql<number>`(select count(*)::int from evidence e where e.milestone_id = milestones.id)`,
  createdAt: milestones.createdAt,
  updatedAt: milestones.updatedAt,
};

interface MilestoneSelect {
  id: string;
  projectId: string;
  title: string;
  description: string;
  dueDate: string;
  capitalAmount: string;
  status: string;
  verifierId: string | null;
  verifierName: string | null;
  verificationDate: Date | null;
  comments: string | null;
  checklist: unknown;
  evidenceCount: number;
  createdAt: Date;
  updatedAt: Date;
}

export function toMilestoneDto(row: MilestoneSelect): MilestoneDto {
  const status = row.status as MilestoneStatus;
  const checklist = { ...EMPTY_CHECKLIST, ...((row.checklist ?? {}) as Partial<Checklist>) };
  return {
    id: row.id,
    projectId: row.projectId,
    title: row.title,
    description: row.description,
    dueDate: row.dueDate,
    capitalAmount: toMoney(row.capitalAmount),
    status,
    verifierId: row.verifierId,
    verifierName: row.verifierName,
    verificationDate: row.verificationDate?.toISOString() ?? null,
    comments: row.comments,
    checklist,
    verificationProgress: verificationProgress(status, checklist),
    evidenceCount: Number(row.evidenceCount),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Milestones matching `where`, earliest due first, with verifier name and evidence count. */
export async function loadMilestones(db: DbOrTx, where: SQL | undefined): Promise<MilestoneDto[]> {
  const rows = await db
    .select(milestoneColumns)
    .from(milestones)
    .leftJoin(users, eq(users.id, milestones.verifierId))
    .where(where)
    .orderBy(asc(milestones.dueDate), asc(milestones.createdAt));
  return rows.map((row) => toMilestoneDto(row as MilestoneSelect));
}
