import {
  type Currency,
  LIMITS,
  type MilestoneStatus,
  type VerifierQueueDto,
  type VerifierQueueItemDto,
} from "@tranche/domain";
import { and, asc, count, desc, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { milestones, projectMembers, projects } from "../../db/schema";
import { forbidden } from "../../errors";
import { toMoney } from "../../lib/money";
import { progressOf } from "./access";

/** The signed-in verifier's queue: milestones of the projects they verify (and may verify: no conflicts). */
export async function verifierQueue(ctx: ServiceContext): Promise<VerifierQueueDto> {
  const { db, actor } = ctx;
  if (actor.role !== "verifier") throw forbidden("Only verifiers have a verification queue.");
  const assigned = db
    .select({ id: projectMembers.projectId })
    .from(projectMembers)
    .where(
      and(
        eq(projectMembers.userId, actor.id),
        eq(projectMembers.role, "verifier"),
        sql`not exists (select 1 from project_members x where x.project_id = ${projectMembers.projectId}
            and x.user_id = ${actor.id} and x.role in ('owner', 'investor'))`,
      ),
    );
  const columns = {
    milestoneId: milestones.id,
    projectId: milestones.projectId,
    projectName: projects.name,
    title: milestones.title,
    description: milestones.description,
    dueDate: milestones.dueDate,
    capitalAmount: milestones.capitalAmount,
    currency: projects.currency,
    status: milestones.status,
    verificationDate: milestones.verificationDate,
    checklist: milestones.checklist,
  };
  const base = () => db.select(columns).from(milestones).innerJoin(projects, eq(projects.id, milestones.projectId));
  const inQueue = and(
    inArray(milestones.projectId, assigned),
    or(
      eq(milestones.status, "pending"),
      and(eq(milestones.status, "in_verification"), eq(milestones.verifierId, actor.id)),
    ),
  );
  const decidedByMe = and(
    inArray(milestones.status, ["verified", "rejected"]),
    eq(milestones.verifierId, actor.id),
    isNotNull(milestones.verificationDate),
  );
  const [pending, delayed, completed, [{ n: completedCount }], [{ n: projectCount }]] = await Promise.all([
    base().where(inQueue).orderBy(asc(milestones.dueDate), asc(milestones.id)),
    base()
      .where(and(inArray(milestones.projectId, assigned), eq(milestones.status, "delayed")))
      .orderBy(asc(milestones.dueDate), asc(milestones.id)),
    base().where(decidedByMe).orderBy(desc(milestones.verificationDate)).limit(LIMITS.verifierCompleted),
    db.select({ n: count() }).from(milestones).where(decidedByMe),
    db.select({ n: count() }).from(assigned.as("assigned")),
  ]);
  const item = (row: (typeof pending)[number]): VerifierQueueItemDto => ({
    milestoneId: row.milestoneId,
    projectId: row.projectId,
    projectName: row.projectName,
    title: row.title,
    description: row.description,
    dueDate: row.dueDate,
    capitalAmount: toMoney(row.capitalAmount),
    currency: row.currency as Currency,
    status: row.status as MilestoneStatus,
    verificationDate: row.verificationDate?.toISOString() ?? null,
    progress: progressOf(row.status, row.checklist),
  });
  return {
    counts: { assignedProjects: projectCount, pending: pending.length, completed: completedCount },
    pending: pending.map(item),
    completed: completed.map(item),
    delayed: delayed.map(item),
  };
}
