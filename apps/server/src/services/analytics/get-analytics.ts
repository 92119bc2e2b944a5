// The series behind the Reports charts, each one aggregate query over the projects the caller may see.
import type { AnalyticsDto, Currency } from "@tranche/domain";
import { type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { queryRows } from "../../db/client";
import { toMoney } from "../../lib/money";
import { visibleProjects } from "../projects/visibility";
import { openAmount } from "../releases/sums";

/** Months shown: the last 12, this one included. */
const MONTHS = 12;
export const TURNAROUND_BUCKETS = ["Under 1 day", "1–3 days", "3–7 days", "7–14 days", "14–30 days", "Over 30 days"];

const visible = (ctx: ServiceContext): SQL => visibleProjects(ctx.actor) ?? sql`true`;

function groupByCurrency<T extends { currency: Currency }, P>(rows: T[], point: (row: T) => P) {
  const out = new Map<Currency, P[]>();
  for (const row of rows) out.set(row.currency, [...(out.get(row.currency) ?? []), point(row)]);
  return [...out].map(([currency, points]) => ({ currency, points }));
}

export async function getAnalytics(ctx: ServiceContext): Promise<AnalyticsDto> {
  const { db } = ctx;
  const months = sql`generate_series(date_trunc('month', now()) - ${`${MONTHS - 1} months`}::interval,
    date_trunc('month', now()), interval '1 month')`;

  // Running totals at each month's end: released = instructed or settled (not failed, not cancelled).
  const capital = await queryRows<{ currency: Currency; month: string; released: string; settled: string }>(
    db,
    sql`with months as (select m as start, m + interval '1 month' as finish from ${months} as m),
      rel as (
        select d.currency, d.status, d.created_at as released_at, d.settled_at, d.amount from disbursements d
        join projects on projects.id = d.project_id where ${visible(ctx)})
      select c.currency, to_char(months.start, 'YYYY-MM') as month,
        coalesce(sum(rel.amount) filter (
          where rel.status in ('instructed', 'settled') and rel.released_at < months.finish), 0) as released,
        coalesce(sum(rel.amount) filter (where rel.status = 'settled' and rel.settled_at < months.finish), 0) as settled
      from months cross join (select distinct currency from rel) c
      left join rel on rel.currency = c.currency
      group by c.currency, months.start order by c.currency, months.start`,
  );

  // Each milestone's status at a month's end, from its own timestamps (created, started, decided); this month's
  // is its status today, so the last point agrees with every page that counts milestones by status.
  const milestones = await queryRows<{
    month: string;
    pending: number;
    in_verification: number;
    verified: number;
    rejected: number;
    delayed: number;
  }>(
    db,
    sql`with months as (select m as start, m + interval '1 month' as finish from ${months} as m),
      ms as (
        select milestones.status, milestones.created_at, milestones.started_at, milestones.verification_date
        from milestones join projects on projects.id = milestones.project_id where ${visible(ctx)}),
      at_end as (
        select months.start, case
            when months.finish > now() then ms.status
            when ms.status in ('verified', 'rejected') and ms.verification_date < months.finish then ms.status
            when ms.started_at < months.finish then 'in_verification'
            else 'pending' end as status
        from months join ms on ms.created_at < months.finish)
      select to_char(months.start, 'YYYY-MM') as month,
        count(at_end.status) filter (where at_end.status = 'pending')::int as pending,
        count(at_end.status) filter (where at_end.status = 'in_verification')::int as in_verification,
        count(at_end.status) filter (where at_end.status = 'verified')::int as verified,
        count(at_end.status) filter (where at_end.status = 'rejected')::int as rejected,
        count(at_end.status) filter (where at_end.status = 'delayed')::int as delayed
      from months left join at_end on at_end.start = months.start
      group by months.start order by months.start`,
  );

  const turnaround =
    ctx.actor.role === "admin"
      ? await queryRows<{ bucket: number; count: number }>(
          db,
          sql`select width_bucket(extract(epoch from verification_date - started_at) / 86400,
                array[1, 3, 7, 14, 30]::float8[]) as bucket, count(*)::int as count
              from milestones
              where verification_date is not null and started_at is not null and verification_date >= started_at
              group by 1`,
        )
      : null;

  // What the Pending Verification card sums (the open amount of milestones pending or in verification), by the
  // month due; one already past due is due now.
  const upcoming = await queryRows<{ currency: Currency; month: string; amount: string }>(
    db,
    sql`with months as (select m as start from generate_series(date_trunc('month', now()),
          date_trunc('month', now()) + interval '11 months', interval '1 month') as m),
      due as (
        select projects.currency, greatest(milestones.due_date, date_trunc('month', now())::date) as due_date,
               ${openAmount(sql`milestones`)} as amount
        from milestones join projects on projects.id = milestones.project_id
        where ${visible(ctx)} and milestones.status in ('pending', 'in_verification'))
      select c.currency, to_char(months.start, 'YYYY-MM') as month,
        coalesce(sum(due.amount) filter (
          where due.due_date >= months.start and due.due_date < months.start + interval '1 month'), 0) as amount
      from months cross join (select distinct currency from due) c
      left join due on due.currency = c.currency
      group by c.currency, months.start order by c.currency, months.start`,
  );

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
