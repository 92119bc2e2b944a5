import {
  type Currency,
  LIMITS,
  type MilestoneStatus,
  type Page,
  type VerifierQueueDto,
  type VerifierQueueItemDto,
} from "@tranche/domain";
import { and, asc, count, desc, eq, inArray, isNotNull, or, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { ServiceContext } from "../../context";
import type { DbOrTx } from "../../db/client";
import { milestones, projectMembers, projects } from "../../db/schema";
import { forbidden } from "../../errors";
import { toMoney } from "../../lib/money";
import { pageLimit } from "../../lib/validate";
import { progressOf } from "./access";

function assignedProjects(ctx: ServiceContext) {
  const { db, actor } = ctx;
  return db
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
}

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

const selectQueue = (db: DbOrTx) =>
  db.select(columns).from(milestones).innerJoin(projects, eq(projects.id, milestones.projectId)).$dynamic();
type QueueRow = Awaited<ReturnType<typeof selectQueue>>[number];

function queueItem(row: QueueRow): VerifierQueueItemDto {
  return {
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
  };
}

/** Milestones whose current decision (verified or rejected) is the actor's. */
const decidedBy = (actorId: string): SQL | undefined =>
  and(
    inArray(milestones.status, ["verified", "rejected"]),
    eq(milestones.verifierId, actorId),
    isNotNull(milestones.verificationDate),
  );

function requireVerifier(ctx: ServiceContext): void {
  if (ctx.actor.role !== "verifier") throw forbidden("Only verifiers have a verification queue.");
}

/** The signed-in verifier's queue: milestones of the projects they verify (and may verify: no conflicts). */
export async function verifierQueue(ctx: ServiceContext): Promise<VerifierQueueDto> {
  const { db, actor } = ctx;
  requireVerifier(ctx);
  const assigned = assignedProjects(ctx);
  const base = () => selectQueue(db);
  const inQueue = and(
    inArray(milestones.projectId, assigned),
    or(
      eq(milestones.status, "pending"),
      and(eq(milestones.status, "in_verification"), eq(milestones.verifierId, actor.id)),
    ),
  );
  const decidedByMe = decidedBy(actor.id);
  const [pending, delayed, completed, [{ n: completedCount }], [{ n: projectCount }]] = await Promise.all([
    base().where(inQueue).orderBy(asc(milestones.dueDate), asc(milestones.id)),
    base()
      .where(and(inArray(milestones.projectId, assigned), eq(milestones.status, "delayed")))
      .orderBy(asc(milestones.dueDate), asc(milestones.id)),
    base().where(decidedByMe).orderBy(desc(milestones.verificationDate)).limit(LIMITS.verifierCompleted),
    db.select({ n: count() }).from(milestones).where(decidedByMe),
    db.select({ n: count() }).from(assigned.as("assigned")),
  ]);
  return {
    counts: { assignedProjects: projectCount, pending: pending.length, completed: completedCount },
    pending: pending.map(queueItem),
    completed: completed.map(queueItem),
    delayed: delayed.map(queueItem),
  };
}

export const completedQuery = z.strictObject({
  // An opaque position in the list (the number of items already read).
  cursor: z
    .string()
    .regex(/^\d{1,9}$/, { error: "Cursor is not valid." })
    .optional(),
  limit: pageLimit(20),
});

/** Every decision the signed-in verifier made, newest first, a page at a time (the /verifications Completed tab). */
export async function completedVerifications({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: z.output<typeof completedQuery>;
}): Promise<Page<VerifierQueueItemDto> & { total: number }> {
  requireVerifier(ctx);
  const offset = Number(input.cursor ?? 0);
  const [rows, [{ n: total }]] = await Promise.all([
    selectQueue(ctx.db)
      .where(decidedBy(ctx.actor.id))
      .orderBy(desc(milestones.verificationDate), desc(milestones.id))
      .limit(input.limit + 1)
      .offset(offset),
    ctx.db.select({ n: count() }).from(milestones).where(decidedBy(ctx.actor.id)),
  ]);
  return {
    items: rows.slice(0, input.limit).map(queueItem),
    nextCursor: rows.length > input.limit ? String(offset + input.limit) : null,
    total,
  };
}
