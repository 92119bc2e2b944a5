import { formatDate, LIMITS, type VerifierTurnaroundDto } from "@tranche/domain";
import { and, between, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import type { Deps } from "../../context";
import { type DbOrTx, queryRows } from "../../db/client";
import {
  milestoneDueSoonNotices,
  milestones,
  projectMembers,
  projects,
  users,
  verificationOverdueNotices,
} from "../../db/schema";
import { type PeriodicTask, periodicTask } from "../../lib/periodic";
import { appendAudit } from "../audit/append";
import { notify } from "../notifications/notify";
import { milestoneLink } from "../verification/locked";
import { decidedBy, decisionStartedAt } from "./decided";

const DAY_MS = 86_400_000;
const HOUR_S = 3600;

const overdueSince = (slaDays: number, now: Date) => new Date(now.getTime() - slaDays * DAY_MS);

const hours = (seconds: number | string | null) =>
  seconds === null ? null : Math.round((Number(seconds) / HOUR_S) * 10) / 10;

/**
 * How many of a verifier's latest decisions their turnaround is taken over: it describes how they work now, and
 * its cost stays the same however long their history (milestones_verifier_decided_idx reads the latest first).
 */
export const TURNAROUND_WINDOW = 100;

/**
 * Each verifier's turnaround, keyed by user id: median and 90th percentile time from the start of a verification
 * to their decision (over the latest TURNAROUND_WINDOW milestones they decided, services/verifiers/decided.ts), what they
 * have open, and how much of it is older than `slaDays`; and how many milestones they completed (completedCount's
 * figure, from the same reading of their decisions).
 */
export async function verifierTrackRecords(
  db: DbOrTx,
  slaDays: number,
  options: { now?: Date; ids?: string[] } = {},
): Promise<Map<string, { turnaround: VerifierTurnaroundDto; completed: number }>> {
  const { now = new Date(), ids } = options;
  if (ids?.length === 0) return new Map();
  const rows = await queryRows<{
    id: string;
    median_s: number | string | null;
    p90_s: number | string | null;
    decided: number;
    completed: number;
    open: number;
    overdue: number;
  }>(
    db,
    sql`select u.id, d.median_s, d.p90_s, d.decided, d.completed, o.open, o.overdue
        from users u
        cross join lateral (
          -- Every milestone they decided, once per milestone: counted whole, and its newest timed.
          with c as materialized (select * from ${decidedBy(sql`u.id`)} c)
          select (select count(*)::int from c) as completed,
                 percentile_cont(0.5) within group (order by x.s) as median_s,
                 percentile_cont(0.9) within group (order by x.s) as p90_s,
                 count(*)::int as decided
          -- Newest first, each start looked up only until the window is full ("offset 0" keeps the lookup
          -- above the sort).
          from (select extract(epoch from (c.decided_at - s.started_at)) as s
                from (select * from c order by c.decided_at desc offset 0) c
                cross join lateral (select ${decisionStartedAt(sql`c`)} as started_at) s
                where s.started_at is not null and c.decided_at >= s.started_at
                limit ${TURNAROUND_WINDOW}) x
        ) d
        cross join lateral (
          select count(*)::int as open,
                 (count(*) filter (where m.started_at < ${overdueSince(slaDays, now).toISOString()}::timestamptz))::int
                   as overdue
          from milestones m
          where m.verifier_id = u.id and m.status = 'in_verification'
        ) o
        where u.role = 'verifier'
          ${
            ids
              ? sql`and u.id in (${sql.join(
                  ids.map((id) => sql`${id}::uuid`),
                  sql`, `,
                )})`
              : sql``
          }`,
  );
  return new Map(
    rows.map((r) => [
      r.id,
      {
        turnaround: {
          medianHours: hours(r.median_s),
          p90Hours: hours(r.p90_s),
          decided: Number(r.decided),
          open: Number(r.open),
          overdue: Number(r.overdue),
          slaDays,
        },
        completed: Number(r.completed),
      },
    ]),
  );
}

const noTurnaround = (slaDays: number): VerifierTurnaroundDto => ({
  medianHours: null,
  p90Hours: null,
  decided: 0,
  open: 0,
  overdue: 0,
  slaDays,
});

/** One verifier's turnaround from verifierTrackRecords' answer (none yet when they have decided nothing). */
export const turnaroundOf = (track: Map<string, { turnaround: VerifierTurnaroundDto }>, id: string, slaDays: number) =>
  track.get(id)?.turnaround ?? noTurnaround(slaDays);

/**
 * Notifies the verifier and the admins of every verification open longer than VERIFICATION_SLA_DAYS, once per
 * start: the notice row's primary key (milestone, start) is claimed in the same transaction as the notification
 * and the audit event, so processes sweeping at the same time notify once. Resolves to how many were notified.
 */
export async function notifyOverdueVerifications(deps: Pick<Deps, "db" | "env">, now = new Date()): Promise<number> {
  const slaDays = deps.env.VERIFICATION_SLA_DAYS;
  const due = await deps.db
    .select({
      id: milestones.id,
      title: milestones.title,
      projectId: milestones.projectId,
      projectName: projects.name,
      verifierId: milestones.verifierId,
      startedAt: milestones.startedAt,
    })
    .from(milestones)
    .innerJoin(projects, eq(projects.id, milestones.projectId))
    .leftJoin(
      verificationOverdueNotices,
      and(
        eq(verificationOverdueNotices.milestoneId, milestones.id),
        eq(verificationOverdueNotices.startedAt, milestones.startedAt),
      ),
    )
    .where(
      and(
        eq(milestones.status, "in_verification"),
        lt(milestones.startedAt, overdueSince(slaDays, now)),
        isNull(verificationOverdueNotices.milestoneId),
      ),
    );
  let notified = 0;
  for (const m of due) {
    if (!m.startedAt) continue;
    const startedAt = m.startedAt;
    const claimed = await deps.db.transaction(async (tx) => {
      const [marked] = await tx
        .insert(verificationOverdueNotices)
        .values({ milestoneId: m.id, startedAt, verifierId: m.verifierId })
        .onConflictDoNothing()
        .returning({ milestoneId: verificationOverdueNotices.milestoneId });
      if (!marked) return false;
      const admins = await tx.select({ id: users.id }).from(users).where(eq(users.role, "admin"));
      await appendAudit(tx, {
        actorId: null,
        action: "milestone.verification_overdue",
        entityType: "milestone",
        entityId: m.id,
        projectId: m.projectId,
        after: { verifierId: m.verifierId, startedAt: startedAt.toISOString(), slaDays },
      });
      await notify(tx, [m.verifierId, ...admins.map((a) => a.id)], {
        title: "Verification overdue",
        message: `"${m.title}" (${m.projectName}) has been in verification for more than ${slaDays} ${
          slaDays === 1 ? "day" : "days"
        }.`,
        category: "verification",
        link: milestoneLink(m.id),
        subject: { projectId: m.projectId, milestoneId: m.id },
        push: { urgency: "high", recipients: [m.verifierId] },
      });
      return true;
    });
    if (claimed) notified += 1;
  }
  return notified;
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * Tells the verifiers of every milestone still to verify (pending or in verification) that is due within
 * LIMITS.urgentWithinDays, once per due date: its verifier when one has started (and is still on the project), else
 * every verifier of the project.
 * The notice row is claimed in the same transaction as the notification, so processes sweeping together tell once.
 * Resolves to how many milestones were announced.
 */
export async function notifyDueSoonMilestones(deps: Pick<Deps, "db" | "env">, now = new Date()): Promise<number> {
  const until = new Date(now.getTime() + LIMITS.urgentWithinDays * DAY_MS);
  const due = await deps.db
    .select({
      id: milestones.id,
      title: milestones.title,
      dueDate: milestones.dueDate,
      projectId: milestones.projectId,
      projectName: projects.name,
      verifierId: milestones.verifierId,
    })
    .from(milestones)
    .innerJoin(projects, eq(projects.id, milestones.projectId))
    .leftJoin(
      milestoneDueSoonNotices,
      and(
        eq(milestoneDueSoonNotices.milestoneId, milestones.id),
        eq(milestoneDueSoonNotices.dueDate, milestones.dueDate),
      ),
    )
    .where(
      and(
        inArray(milestones.status, ["pending", "in_verification"]),
        between(milestones.dueDate, isoDay(now), isoDay(until)),
        isNull(milestoneDueSoonNotices.milestoneId),
      ),
    );
  let notified = 0;
  for (const m of due) {
    const claimed = await deps.db.transaction(async (tx) => {
      const [marked] = await tx
        .insert(milestoneDueSoonNotices)
        .values({ milestoneId: m.id, dueDate: m.dueDate })
        .onConflictDoNothing()
        .returning({ milestoneId: milestoneDueSoonNotices.milestoneId });
      if (!marked) return false;
      const members = (
        await tx
          .select({ userId: projectMembers.userId })
          .from(projectMembers)
          .where(and(eq(projectMembers.projectId, m.projectId), eq(projectMembers.role, "verifier")))
      ).map((row) => row.userId);
      // Its verifier while still on the project: one removed since is told nothing more about it.
      const verifiers = m.verifierId && members.includes(m.verifierId) ? [m.verifierId] : members;
      await notify(tx, verifiers, {
        title: "Verification due soon",
        message: `"${m.title}" (${m.projectName}) is due on ${formatDate(m.dueDate)}.`,
        category: "verification",
        link: milestoneLink(m.id),
        subject: { projectId: m.projectId, milestoneId: m.id },
        push: { urgency: "normal" },
      });
      return true;
    });
    if (claimed) notified += 1;
  }
  return notified;
}

export type OverdueSweeper = PeriodicTask<number>;

/**
 * Runs notifyOverdueVerifications and notifyDueSoonMilestones every VERIFICATION_SLA_SWEEP_MS in this process (like
 * the audit checkpointer).
 */
export function createOverdueSweeper(deps: Pick<Deps, "db" | "env" | "logger">): OverdueSweeper {
  return periodicTask({
    everyMs: deps.env.VERIFICATION_SLA_SWEEP_MS,
    run: async () => (await notifyOverdueVerifications(deps)) + (await notifyDueSoonMilestones(deps)),
    idle: 0,
    logger: deps.logger,
    failure: "overdue verification sweep failed",
  });
}
