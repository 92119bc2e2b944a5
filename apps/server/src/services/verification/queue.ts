import {
  type Currency,
  LIMITS,
  LIST_PAGE_SIZE,
  listCursor,
  type MilestoneStatus,
  type VerifierQueueDto,
  type VerifierQueueItemDto,
  type VerifierQueuePageDto,
  type verifierPendingQuerySchema,
} from "@tranche/domain";
import { and, asc, desc, eq, ilike, or, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { ServiceContext } from "../../context";
import type { DbOrTx } from "../../db/client";
import { milestones, projects } from "../../db/schema";
import { forbidden } from "../../errors";
import { keyset, keysetPage, type SortSpec } from "../../lib/keyset";
import { toMoney } from "../../lib/money";
import { pageLimit } from "../../lib/validate";
import { containsPattern } from "../projects/list";
import { openAmount } from "../releases/sums";
import { decidedBy } from "../verifiers/decided";
import { progressOf } from "./access";

/** The projects `verifierId` verifies without a conflict (neither owning nor investing in them), as a subquery. */
const verifiedProjects = (verifierId: string) => sql`(
  select pm.project_id from project_members pm
  where pm.user_id = ${verifierId} and pm.role = 'verifier'
    and not exists (select 1 from project_members x where x.project_id = pm.project_id
      and x.user_id = ${verifierId} and x.role in ('owner', 'investor')))`;

/**
 * The milestones (`m` a milestones row reference) waiting on verifier `verifierId`: pending, or in verification
 * by them, on a project they verify. One definition for the queue's list and count and the "Action Required" card.
 */
export const awaitingVerifier = (
  verifierId: string,
  m: SQL,
): SQL => sql`(${m}.project_id in ${verifiedProjects(verifierId)}
  and (${m}.status = 'pending' or (${m}.status = 'in_verification' and ${m}.verifier_id = ${verifierId})))`;

const columns = {
  milestoneId: milestones.id,
  projectId: milestones.projectId,
  projectName: projects.name,
  title: milestones.title,
  description: milestones.description,
  dueDate: milestones.dueDate,
  capitalAmount: milestones.capitalAmount,
  openAmount: openAmount(sql`${milestones}`),
  currency: projects.currency,
  status: milestones.status,
  verificationDate: milestones.verificationDate,
  checklist: milestones.checklist,
};

/** The queue's rows; `extra` adds columns (a list's keyset keys). */
const selectQueue = <E extends Record<string, SQL>>(db: DbOrTx, extra?: E) =>
  db
    .select({ ...columns, ...(extra as E) })
    .from(milestones)
    .innerJoin(projects, eq(projects.id, milestones.projectId))
    .$dynamic();
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
    openAmount: toMoney(row.openAmount),
    currency: row.currency as Currency,
    status: row.status as MilestoneStatus,
    verificationDate: row.verificationDate?.toISOString() ?? null,
    progress: progressOf(row.status, row.checklist),
  };
}

/** The milestones the actor decided (services/verifiers/decided.ts), newest decision first. */
const decided = (actorId: string) => decidedBy(sql`${actorId}::uuid`);

function requireVerifier(ctx: ServiceContext): void {
  if (ctx.actor.role !== "verifier") throw forbidden("Only verifiers have a verification queue.");
}

/** The pending list's first page, as GET /api/verifications/pending answers it unasked. */
const PENDING_FIRST_PAGE = LIST_PAGE_SIZE;

/** The signed-in verifier's queue: milestones of the projects they verify (and may verify: no conflicts). */
export async function verifierQueue(ctx: ServiceContext): Promise<VerifierQueueDto> {
  const { db, actor } = ctx;
  requireVerifier(ctx);
  const base = () => selectQueue(db);
  const [pending, delayed, completed, [{ n: completedCount }], [{ n: projectCount }]] = await Promise.all([
    pendingPage(ctx, { limit: PENDING_FIRST_PAGE }),
    base()
      .where(and(sql`${milestones.projectId} in ${verifiedProjects(actor.id)}`, eq(milestones.status, "delayed")))
      .orderBy(asc(milestones.dueDate), asc(milestones.id)),
    base()
      .innerJoin(sql`${decided(actor.id)} c`, sql`c.milestone_id = ${milestones.id}`)
      .orderBy(sql`c.decided_at desc`, desc(milestones.id))
      .limit(LIMITS.verifierCompleted),
    db.select({ n: sql<number>`count(*)::int` }).from(sql`${decided(actor.id)} c`),
    db.select({ n: sql<number>`count(*)::int` }).from(sql`${verifiedProjects(actor.id)} v`),
  ]);
  return {
    counts: { assignedProjects: projectCount, pending: pending.total, completed: completedCount },
    pending: pending.items,
    pendingNextCursor: pending.nextCursor,
    completed: completed.map(queueItem),
    delayed: delayed.map(queueItem),
  };
}

/** Earliest due first, as the verifier works through the queue (`awaitingVerifier`'s milestones). */
const EARLIEST_DUE: SortSpec = {
  name: "due",
  direction: "asc",
  keys: [
    { expr: milestones.dueDate, type: "date" },
    { expr: milestones.id, type: "uuid" },
  ],
};

/**
 * What waits on the signed-in verifier, earliest due first, a page at a time, with how many in all; `q` matches the
 * title or the description (the Pending tab's search).
 */
export async function pendingPage(
  ctx: ServiceContext,
  input: Partial<z.output<typeof verifierPendingQuerySchema>> & { limit: number },
): Promise<VerifierQueuePageDto> {
  requireVerifier(ctx);
  const page = keyset(EARLIEST_DUE, input.cursor);
  const pattern = input.q ? containsPattern(input.q) : undefined;
  const waiting = and(
    awaitingVerifier(ctx.actor.id, sql`${milestones}`),
    pattern ? or(ilike(milestones.title, pattern), ilike(milestones.description, pattern)) : undefined,
  );
  const [rows, [{ n: total }]] = await Promise.all([
    selectQueue(ctx.db, { keysetKeys: page.keys })
      .where(and(waiting, page.after))
      .orderBy(...page.orderBy)
      .limit(input.limit + 1),
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(milestones).where(waiting),
  ]);
  const { page: items, nextCursor } = keysetPage(rows, input.limit, EARLIEST_DUE);
  return { items: items.map(queueItem), nextCursor, total };
}

export const completedQuery = z.strictObject({
  cursor: listCursor,
  limit: pageLimit(20),
});

/** Newest decision first (`c` is the decided-milestones subquery the list joins). */
const NEWEST_DECISION: SortSpec = {
  name: "newest",
  direction: "desc",
  keys: [
    { expr: sql`c.decided_at`, type: "timestamptz" },
    { expr: milestones.id, type: "uuid" },
  ],
};

/** Every decision the signed-in verifier made, newest first, a page at a time (the /verifications Completed tab). */
export async function completedVerifications({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: z.output<typeof completedQuery>;
}): Promise<VerifierQueuePageDto> {
  requireVerifier(ctx);
  const page = keyset(NEWEST_DECISION, input.cursor);
  const [rows, [{ n: total }]] = await Promise.all([
    selectQueue(ctx.db, { keysetKeys: page.keys })
      .innerJoin(sql`${decided(ctx.actor.id)} c`, sql`c.milestone_id = ${milestones.id}`)
      .where(page.after)
      .orderBy(...page.orderBy)
      .limit(input.limit + 1),
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(sql`${decided(ctx.actor.id)} c`),
  ]);
  const { page: items, nextCursor } = keysetPage(rows, input.limit, NEWEST_DECISION);
  return { items: items.map(queueItem), nextCursor, total };
}
