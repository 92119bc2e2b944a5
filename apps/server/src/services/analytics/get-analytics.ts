// The series behind the Reports charts, each one aggregate query over the projects the caller may see.
import type { AnalyticsDto, Currency } from "@tranche/domain";
import { type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { queryRows } from "../../db/client";
import { toMoney } from "../../lib/money";
import { visibleProjects } from "../projects/visibility";

/** Months shown: the last 12, this one included. */
const MONTHS = 12;
export const TURNAROUND_BUCKETS = ["Under 1 day", "1–3 days", "3–7 days", "7–14 days", "14–30 days", "Over 30 days"];

const visible = (ctx: ServiceContext): SQL => visibleProjects(ctx.actor) ?? sql`true`;

/**
 * SQL condition: the project whose id is `projectId` (a column) is one the caller may see. An admin sees every
 * project and every row names one, so an admin's series read their own table, not joined to every project.
 */
function ofVisibleProject(ctx: ServiceContext, projectId: SQL): SQL {
  const condition = visibleProjects(ctx.actor);
  return condition ? sql`${projectId} in (select projects.id from projects where ${condition})` : sql`true`;
}

/**
 * MONTHS months as rows (i, start, finish), i from 0, the first `first` months from this one (negative: before).
 * The bounds are written into the statement so the planner knows there are twelve rows: it estimates a series of
 * timestamps at a thousand, and a join with a thousand months costs enough that it compiles the query (JIT),
 * half a second.
 */
const monthRows = (first: number) =>
  sql`select i, date_trunc('month', now()) + make_interval(months => ${sql.raw(String(first))} + i) as start,
    date_trunc('month', now()) + make_interval(months => ${sql.raw(String(first + 1))} + i) as finish
    from generate_series(0, ${sql.raw(String(MONTHS - 1))}) as i`;

/**
 * The first month (its i in the query's `months`) at whose end `at` had passed: `at < months.finish` exactly when
 * this is at most months.i (never when `at` is null). The series group their rows by these months, a few hundred
 * groups, before comparing them with each month's end, rather than comparing every row with every month's end;
 * a binary search of the months' ends, cheaper per row than date_trunc in a time zone.
 */
const monthPassed = (at: SQL) => sql`width_bucket(${at}, (select array_agg(finish order by i) from months))`;

function groupByCurrency<T extends { currency: Currency }, P>(rows: T[], point: (row: T) => P) {
  const out = new Map<Currency, P[]>();
  for (const row of rows) out.set(row.currency, [...(out.get(row.currency) ?? []), point(row)]);
  return [...out].map(([currency, points]) => ({ currency, points }));
}

// Running totals at each month's end: released = instructed or settled (not failed, not cancelled).
const capitalSeries = (ctx: ServiceContext) =>
  queryRows<{ currency: Currency; month: string; released: string; settled: string }>(
    ctx.db,
    sql`with months as (${monthRows(1 - MONTHS)}),
      rel as (
        select d.currency, d.status, ${monthPassed(sql`d.created_at`)} as released_in,
          ${monthPassed(sql`d.settled_at`)} as settled_in, sum(d.amount) as amount
        from disbursements d where ${ofVisibleProject(ctx, sql`d.project_id`)} group by 1, 2, 3, 4)
      select c.currency, to_char(months.start, 'YYYY-MM') as month,
        coalesce(sum(rel.amount) filter (
          where rel.status in ('instructed', 'settled') and rel.released_in <= months.i), 0) as released,
        coalesce(sum(rel.amount) filter (where rel.status = 'settled' and rel.settled_in <= months.i), 0) as settled
      from months cross join (select distinct currency from rel) c
      left join rel on rel.currency = c.currency
      group by c.currency, months.i, months.start order by c.currency, months.i`,
  );

// Each milestone's status at a month's end, from its own timestamps (created, started, decided); this month's
// is its status today, so the last point agrees with every page that counts milestones by status.
const milestoneSeries = (ctx: ServiceContext) =>
  queryRows<{
    month: string;
    pending: number;
    in_verification: number;
    verified: number;
    rejected: number;
    delayed: number;
  }>(
    ctx.db,
    sql`with months as (${monthRows(1 - MONTHS)}),
      ms as (
        select milestones.status, ${monthPassed(sql`milestones.created_at`)} as created_in,
          ${monthPassed(sql`milestones.started_at`)} as started_in,
          ${monthPassed(sql`milestones.verification_date`)} as decided_in, count(*) as n
        from milestones where ${ofVisibleProject(ctx, sql`milestones.project_id`)} group by 1, 2, 3, 4),
      at_end as (
        select months.i, ms.n, case
            when months.finish > now() then ms.status
            when ms.status in ('verified', 'rejected') and ms.decided_in <= months.i then ms.status
            when ms.started_in <= months.i then 'in_verification'
            else 'pending' end as status
        from months join ms on ms.created_in <= months.i)
      select to_char(months.start, 'YYYY-MM') as month,
        coalesce(sum(at_end.n) filter (where at_end.status = 'pending'), 0)::int as pending,
        coalesce(sum(at_end.n) filter (where at_end.status = 'in_verification'), 0)::int as in_verification,
        coalesce(sum(at_end.n) filter (where at_end.status = 'verified'), 0)::int as verified,
        coalesce(sum(at_end.n) filter (where at_end.status = 'rejected'), 0)::int as rejected,
        coalesce(sum(at_end.n) filter (where at_end.status = 'delayed'), 0)::int as delayed
      from months left join at_end on at_end.i = months.i
      group by months.i, months.start order by months.i`,
  );

const turnaroundSeries = (ctx: ServiceContext) =>
  queryRows<{ bucket: number; count: number }>(
    ctx.db,
    sql`select width_bucket(extract(epoch from verification_date - started_at) / 86400,
          array[1, 3, 7, 14, 30]::float8[]) as bucket, count(*)::int as count
        from milestones
        where verification_date is not null and started_at is not null and verification_date >= started_at
        group by 1`,
  );

// What the Pending Verification card sums (the open amount of milestones pending or in verification: their amount
// less their releases that were not cancelled), by the month due; one already past due is due now. Most open
// milestones are due now (past due), so only those due later are read, each month's amounts summed as amounts
// less releases in one join; this month's is the rest of the open amount the project rollups hold, the figure the
// card shows.
const upcomingSeries = (ctx: ServiceContext) =>
  queryRows<{ currency: Currency; month: string; amount: string }>(
    ctx.db,
    sql`with months as (${monthRows(0)}),
      later as (
        select milestones.id, projects.currency, milestones.due_date, milestones.capital_amount
        from milestones join projects on projects.id = milestones.project_id
        where ${visible(ctx)} and milestones.status in ('pending', 'in_verification')
          and milestones.due_date >= date_trunc('month', now()) + interval '1 month'),
      due_later as (
        select amounts.currency, amounts.due_date, sum(amounts.amount) as amount
        from (
          select later.currency, later.due_date, later.capital_amount as amount from later
          union all
          select later.currency, later.due_date, -d.amount from later
          join disbursements d on d.milestone_id = later.id and d.status <> 'cancelled') as amounts
        group by amounts.currency, amounts.due_date),
      open as (
        select r.currency, sum(r.pending_capital) as amount from project_rollups r
        where ${ofVisibleProject(ctx, sql`r.project_id`)} and r.milestones_pending + r.milestones_in_verification > 0
        group by r.currency),
      due as (
        select due_later.currency, due_later.due_date, due_later.amount from due_later
        union all
        select open.currency, date_trunc('month', now())::date, open.amount - coalesce(
          (select sum(due_later.amount) from due_later where due_later.currency = open.currency), 0)
        from open)
      select c.currency, to_char(months.start, 'YYYY-MM') as month,
        coalesce(sum(due.amount) filter (where due.due_date >= months.start and due.due_date < months.finish), 0)
          as amount
      from months cross join (select distinct currency from due) c
      left join due on due.currency = c.currency
      group by c.currency, months.i, months.start order by c.currency, months.i`,
  );

export async function getAnalytics(ctx: ServiceContext): Promise<AnalyticsDto> {
  // Independent reads: on PostgreSQL each takes its own pooled connection, so they run side by side.
  const [capital, milestones, turnaround, upcoming] = await Promise.all([
    capitalSeries(ctx),
    milestoneSeries(ctx),
    ctx.actor.role === "admin" ? turnaroundSeries(ctx) : null,
    upcomingSeries(ctx),
  ]);
  return {
    capital: groupByCurrency(capital, (r) => ({
      month: r.month,
      released: toMoney(r.released),
      settled: toMoney(r.settled),
    })),
    milestones: milestones.map((r) => ({
      month: r.month,
      pending: r.pending,
      inVerification: r.in_verification,
      verified: r.verified,
      rejected: r.rejected,
      delayed: r.delayed,
    })),
    turnaround: turnaround
      ? TURNAROUND_BUCKETS.map((bucket, i) => ({
          bucket,
          count: turnaround.find((row) => Number(row.bucket) === i)?.count ?? 0,
        }))
      : null,
    upcoming: groupByCurrency(upcoming, (r) => ({ month: r.month, amount: toMoney(r.amount) })),
  };
}
