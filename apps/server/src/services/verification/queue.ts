import {
  type Currency,
  LIMITS,
  LIST_PAGE_SIZE,
  listCursor,
  type MilestoneStatus,
  pageLimit,
  type VerifierQueueDto,
  type VerifierQueueItemDto,
  type VerifierQueuePageDto,
  type verifierPendingQuerySchema,
} from "@tranche/domain";
import { and, asc, eq, ilike, or, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { ServiceContext } from "../../context";
import { type DbOrTx, queryRows } from "../../db/client";
import { milestones, projects } from "../../db/schema";
import { forbidden } from "../../errors";
import { earliestDue, keyset, keysetPage, type SortSpec } from "../../lib/keyset";
import { toMoney } from "../../lib/money";
import { containsPattern } from "../projects/list";
import { openAmount } from "../releases/sums";
import { completedCount, decidedBy } from "../verifiers/decided";
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

function requireVerifier(ctx: ServiceContext): void {
  if (ctx.actor.role !== "verifier") throw forbidden("Only verifiers have a verification queue.");
}

/** Earliest due first, as the verifier works through the queue (`awaitingVerifier`'s milestones). */
const EARLIEST_DUE = earliestDue(milestones.dueDate, milestones.id);

/** Newest decision first, on the decided-milestones rows (`c`, services/verifiers/decided.ts). */
const NEWEST_DECISION: SortSpec = {
  name: "newest",
  direction: "desc",
  keys: [
    { expr: sql`c.decided_at`, type: "timestamptz" },
    { expr: sql`c.milestone_id`, type: "uuid" },
  ],
};

/** What waits on `verifierId` and matches `q` (title or description), as a condition on milestones. */
function waitingOn(verifierId: string, q: string | undefined): SQL | undefined {
  const pattern = q ? containsPattern(q) : undefined;
  return and(
    awaitingVerifier(verifierId, sql`${milestones}`),
    pattern ? or(ilike(milestones.title, pattern), ilike(milestones.description, pattern)) : undefined,
  );
}

/** A page of what waits on `verifierId` (`limit + 1` rows, for keysetPage), earliest due first. */
function pendingRows(db: DbOrTx, verifierId: string, input: { q?: string; cursor?: string; limit: number }) {
  const page = keyset(EARLIEST_DUE, input.cursor);
  return selectQueue(db, { keysetKeys: page.keys })
    .where(and(waitingOn(verifierId, input.q), page.after))
    .orderBy(...page.orderBy)
    .limit(input.limit + 1);
}

/**
 * A page of what `verifierId` decided (`limit + 1` rows), newest decision first. The page is cut from their
 * decisions before it is joined to milestones and projects, so a long history is sorted, not joined, in full.
 */
function decidedRows(db: DbOrTx, verifierId: string, input: { cursor?: string; limit: number }) {
  const page = keyset(NEWEST_DECISION, input.cursor);
  const newest = sql`(
    select c.* from ${decidedBy(sql`${verifierId}::uuid`)} c
    ${page.after ? sql`where ${page.after}` : sql``}
    order by ${sql.join(page.orderBy, sql`, `)}
    limit ${input.limit + 1})`;
  return selectQueue(db, { keysetKeys: page.keys })
    .innerJoin(sql`${newest} c`, sql`c.milestone_id = ${milestones.id}`)
    .orderBy(...page.orderBy);
}

/** The pending list's first page, as GET /api/verifications/pending answers it unasked. */
const PENDING_FIRST_PAGE = LIST_PAGE_SIZE;

/** The signed-in verifier's queue: milestones of the projects they verify (and may verify: no conflicts). */
export async function verifierQueue(ctx: ServiceContext): Promise<VerifierQueueDto> {
  const { db, actor } = ctx;
  requireVerifier(ctx);
  const [pending, delayed, completed, [counts]] = await Promise.all([
    pendingRows(db, actor.id, { limit: PENDING_FIRST_PAGE }),
    selectQueue(db)
      .where(and(sql`${milestones.projectId} in ${verifiedProjects(actor.id)}`, eq(milestones.status, "delayed")))
      .orderBy(asc(milestones.dueDate), asc(milestones.id)),
    decidedRows(db, actor.id, { limit: LIMITS.verifierCompleted }),
    queryRows<VerifierQueueDto["counts"]>(
      db,
      sql`select (select count(*)::int from ${verifiedProjects(actor.id)} v) as "assignedProjects",
        (select count(*)::int from milestones m where ${awaitingVerifier(actor.id, sql`m`)}) as "pending",
        ${completedCount(sql`${actor.id}::uuid`)} as "completed"`,
    ),
  ]);
  const first = keysetPage(pending, PENDING_FIRST_PAGE, EARLIEST_DUE);
  return {
    counts,
    pending: first.page.map(queueItem),
    pendingNextCursor: first.nextCursor,
    completed: completed.slice(0, LIMITS.verifierCompleted).map(queueItem),
    delayed: delayed.map(queueItem),
  };
}

/**
 * What waits on the signed-in verifier, earliest due first, a page at a time, with how many in all; `q` matches the
 * title or the description (the Pending tab's search).
 */
export async function pendingPage(
  ctx: ServiceContext,
  input: z.output<typeof verifierPendingQuerySchema>,
): Promise<VerifierQueuePageDto> {
  requireVerifier(ctx);
  const [rows, [{ n: total }]] = await Promise.all([
    pendingRows(ctx.db, ctx.actor.id, input),
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(milestones).where(waitingOn(ctx.actor.id, input.q)),
  ]);
  const { page: items, nextCursor } = keysetPage(rows, input.limit, EARLIEST_DUE);
  return { items: items.map(queueItem), nextCursor, total };
}

export const completedQuery = z.strictObject({
  cursor: listCursor,
  limit: pageLimit(20),
});

/** Every decision the signed-in verifier made, newest first, a page at a time (the /verifications Completed tab). */
export async function completedVerifications({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: z.output<typeof completedQuery>;
}): Promise<VerifierQueuePageDto> {
  requireVerifier(ctx);
  const [rows, [{ total }]] = await Promise.all([
    decidedRows(ctx.db, ctx.actor.id, input),
    queryRows<{ total: number }>(ctx.db, sql`select ${completedCount(sql`${ctx.actor.id}::uuid`)} as total`),
  ]);
  const { page: items, nextCursor } = keysetPage(rows, input.limit, NEWEST_DECISION);
  return { items: items.map(queueItem), nextCursor, total };
}
