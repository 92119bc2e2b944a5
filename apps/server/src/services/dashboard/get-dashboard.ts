// The Overview cards and the caller's role dashboard in one call. Every figure is an SQL aggregate over
// the projects the caller may see (their memberships, through project_members_user_idx; all for an
// admin), read from the per-project rollups (services/projects/rollup.ts), so the cost follows the number of
// projects the caller sees, not the number of their milestones and releases.
import {
  type AdminDashboardDto,
  type Currency,
  type DashboardDto,
  type DashboardMilestoneDto,
  type DashboardProjectDto,
  type InvestorDashboardDto,
  LIMITS,
  MILESTONE_STATUSES,
  type MilestoneStatus,
  type MoneyTotal,
  type OverviewDto,
  type OwnerDashboardDto,
  type ProjectStatus,
  progressPercent,
  remainingCapital,
  todayIso,
} from "@tranche/domain";
import { type SQL, sql } from "drizzle-orm";
import type { ServiceContext, SessionUser } from "../../context";
import { type DbOrTx, queryRows } from "../../db/client";
import { toMoney } from "../../lib/money";
import { turnaroundOf, verifierTurnaround } from "../verifiers/turnaround";

/** The caller's projects as a CTE body: every project for an admin, else their memberships. */
function visibleProjects(actor: SessionUser, memberRole?: "owner" | "investor" | "verifier"): SQL {
  if (actor.role === "admin" && !memberRole) return sql`select id as project_id from projects`;
  const role = memberRole ? sql` and role = ${memberRole}` : sql``;
  return sql`select distinct project_id from project_members where user_id = ${actor.id}${role}`;
}

const CURRENCY_ORDER: Currency[] = ["USD", "EUR", "GBP"];
const byCurrency = <T extends { currency: Currency }>(rows: T[]) =>
  [...rows].sort((a, b) => CURRENCY_ORDER.indexOf(a.currency) - CURRENCY_ORDER.indexOf(b.currency));

type MoneyRow = { currency: Currency; amount: string | null };
const moneyTotals = (rows: MoneyRow[]): MoneyTotal[] =>
  byCurrency(rows.map((r) => ({ currency: r.currency, amount: toMoney(r.amount) })));

export async function getDashboard({ ctx }: { ctx: ServiceContext }): Promise<DashboardDto> {
  const overview = await getOverview(ctx.db, ctx.actor);
  switch (ctx.actor.role) {
    case "investor":
      return { overview, role: await investorDashboard(ctx.db, ctx.actor) };
    case "project_owner":
      return { overview, role: await ownerDashboard(ctx.db, ctx.actor) };
    case "admin":
      return { overview, role: await adminDashboard(ctx.db, ctx.env.VERIFICATION_SLA_DAYS) };
    default:
      return { overview, role: { role: "verifier" } };
  }
}

async function getOverview(db: DbOrTx, actor: SessionUser): Promise<OverviewDto> {
  const visible = visibleProjects(actor);
  const rollupRows = await queryRows<{
    currency: Currency;
    released: string;
    pending_capital: string;
    pending_count: number;
  }>(
    db,
    sql`with visible as (${visible})
        select r.currency, sum(r.released) as released, sum(r.pending_capital) as pending_capital,
               sum(r.milestones_pending + r.milestones_in_verification)::int as pending_count
        from project_rollups r join visible v on v.project_id = r.project_id
        group by r.currency`,
  );
  // A month ago's figure is today's less what was released in the last 30 days (and is still released): only
  // recent releases are read, so it costs the same however long the history.
  const recentRows = await queryRows<{ currency: Currency; amount: string }>(
    db,
    sql`with visible as (${visible})
        -- released_at is stored in the created_at column (schema.ts: releasedAt: created()).
        select d.currency, sum(d.amount) as amount
        from disbursements d join visible v on v.project_id = d.project_id
        where d.status in ('instructed', 'settled') and d.created_at > now() - interval '30 days'
        group by d.currency`,
  );
  const recent = new Map(recentRows.map((r) => [r.currency, toMoney(r.amount)]));
  const protectedRows = rollupRows.filter((r) => toMoney(r.released) > 0);
  const pendingRows = rollupRows.filter((r) => Number(r.pending_count) > 0);
  return {
    capitalProtected: byCurrency(
      protectedRows.map((r) => {
        const amount = toMoney(r.released);
        const monthAgo = Math.max(0, Math.round((amount - (recent.get(r.currency) ?? 0)) * 100) / 100);
        return {
          currency: r.currency,
          amount,
          monthAgo,
          changePercent: monthAgo > 0 ? Math.round(((amount - monthAgo) / monthAgo) * 1000) / 10 : null,
        };
      }),
    ),
    pendingVerification: {
      capital: moneyTotals(pendingRows.map((r) => ({ currency: r.currency, amount: r.pending_capital }))),
      count: pendingRows.reduce((n, r) => n + Number(r.pending_count), 0),
    },
    actionRequired: await actionRequired(db, actor),
  };
}

/** What waits on the caller, by role (SPEC.md §2.5 'Action Required'). */
async function actionRequired(db: DbOrTx, actor: SessionUser): Promise<OverviewDto["actionRequired"]> {
  const one = async (query: SQL) => Number((await queryRows<{ count: number }>(db, query))[0]?.count ?? 0);
  switch (actor.role) {
    case "verifier": {
      const count = await one(sql`
        select count(*)::int as count from milestones m
        join (${visibleProjects(actor, "verifier")}) v on v.project_id = m.project_id
        where m.status in ('pending', 'in_verification', 'delayed')
          and (m.verifier_id is null or m.verifier_id = ${actor.id})`);
      return { count, label: count === 1 ? "milestone to verify" : "milestones to verify" };
    }
    case "project_owner": {
      const count = await one(sql`
        select coalesce(sum(r.milestones_rejected), 0)::int as count from project_rollups r
        join (${visibleProjects(actor, "owner")}) v on v.project_id = r.project_id`);
      return { count, label: count === 1 ? "rejected milestone to revise" : "rejected milestones to revise" };
    }
    case "admin": {
      const count = await one(sql`
        select count(*)::int as count from projects p
        where not exists (select 1 from project_members pm where pm.project_id = p.id and pm.role = 'verifier')`);
      return { count, label: count === 1 ? "project without a verifier" : "projects without a verifier" };
    }
    default: {
      const count = await one(sql`
        select count(*)::int as count from projects p
        join (${visibleProjects(actor)}) v on v.project_id = p.id
        where p.status = 'at_risk'`);
      return { count, label: count === 1 ? "at-risk project" : "at-risk projects" };
    }
  }
}

type ProjectRow = {
  id: string;
  name: string;
  status: ProjectStatus;
  total_capital: string;
  disbursed: string;
  settled: string;
  currency: Currency;
  description?: string;
  created_at?: Date | string;
};

const toProject = (r: ProjectRow): DashboardProjectDto => {
  const total = toMoney(r.total_capital);
  const disbursed = toMoney(r.disbursed);
  return {
    id: r.id,
    name: r.name,
    status: r.status,
    totalCapital: total,
    disbursedCapital: disbursed,
    settledCapital: toMoney(r.settled),
    remainingCapital: remainingCapital(total, disbursed),
    currency: r.currency,
  };
};

/** Projects of a CTE with their released capital (from their rollups). */
function projectsQuery(visible: SQL, order: SQL, limit: number, withDescription = false): SQL {
  const description = withDescription
    ? sql`, case when length(p.description) > ${LIMITS.ownerDescriptionChars}
             then left(p.description, ${LIMITS.ownerDescriptionChars}) || '...' else p.description end as description`
    : sql``;
  return sql`with visible as (${visible})
    select p.id, p.name, p.status, p.total_capital, p.currency, p.created_at,
           coalesce(r.released, 0) as disbursed, coalesce(r.settled, 0) as settled${description}
    from projects p join visible v on v.project_id = p.id
    left join project_rollups r on r.project_id = p.id
    order by ${order}
    limit ${limit}`;
}

/**
 * The first `limit` milestones by due date matching `where` across the visible projects: each project's first
 * `limit` through milestones_project_idx, then the overall first, so the cost follows the projects the caller sees,
 * never every milestone of that status.
 */
function upcomingQuery(visible: SQL, where: SQL, limit: number): SQL {
  return sql`with visible as (${visible})
    select m.id, m.title, m.project_id, p.name as project_name, m.due_date, m.capital_amount, p.currency, m.status
    from visible v
    cross join lateral (
      select * from milestones m where m.project_id = v.project_id and ${where}
      order by m.due_date, m.created_at limit ${limit}
    ) m
    join projects p on p.id = m.project_id
    order by m.due_date, m.created_at
    limit ${limit}`;
}

type MilestoneRow = {
  id: string;
  title: string;
  project_id: string;
  project_name: string;
  due_date: string | Date;
  capital_amount: string;
  currency: Currency;
  status: MilestoneStatus;
};

const isoDate = (value: string | Date) => (value instanceof Date ? todayIso(value) : String(value).slice(0, 10));

const toMilestone = (r: MilestoneRow): DashboardMilestoneDto => ({
  id: r.id,
  title: r.title,
  projectId: r.project_id,
  projectName: r.project_name,
  dueDate: isoDate(r.due_date),
  capitalAmount: toMoney(r.capital_amount),
  currency: r.currency,
  status: r.status,
});

// A portfolio is shown whole; this bound keeps one huge account from producing a huge response.
const PORTFOLIO_LIMIT = 100;

async function investorDashboard(db: DbOrTx, actor: SessionUser): Promise<InvestorDashboardDto> {
  const visible = visibleProjects(actor);
  const capitalRows = await queryRows<{ currency: Currency; total: string; disbursed: string; settled: string }>(
    db,
    sql`with visible as (${visible})
        select p.currency, sum(p.total_capital) as total,
               coalesce(sum(r.released), 0) as disbursed, coalesce(sum(r.settled), 0) as settled
        from projects p join visible v on v.project_id = p.id
        left join project_rollups r on r.project_id = p.id
        group by p.currency`,
  );
  const [counts] = await queryRows<{ pending: number; at_risk: number }>(
    db,
    sql`with visible as (${visible})
        select coalesce(sum(r.milestones_pending + r.milestones_in_verification), 0)::int as pending,
               (count(*) filter (where p.status = 'at_risk'))::int as at_risk
        from projects p join visible v on v.project_id = p.id
        left join project_rollups r on r.project_id = p.id`,
  );
  const portfolio = await queryRows<ProjectRow>(db, projectsQuery(visible, sql`p.name, p.id`, PORTFOLIO_LIMIT));
  const upcoming = await queryRows<MilestoneRow>(
    db,
    upcomingQuery(visible, sql`m.status in ('pending', 'in_verification')`, LIMITS.investorUpcomingMilestones),
  );
  const sorted = byCurrency(capitalRows);
  return {
    role: "investor",
    capitalUnderManagement: sorted.map((r) => ({ currency: r.currency, amount: toMoney(r.total) })),
    verifiedDisbursements: sorted.map((r) => ({
      currency: r.currency,
      amount: toMoney(r.disbursed),
      settled: toMoney(r.settled),
      percentOfCommitted: progressPercent(toMoney(r.disbursed), toMoney(r.total)),
    })),
    pendingReviewCount: Number(counts?.pending ?? 0),
    riskAlertsCount: Number(counts?.at_risk ?? 0),
    portfolio: portfolio.map(toProject),
    upcomingMilestones: upcoming.map(toMilestone),
  };
}

async function ownerDashboard(db: DbOrTx, actor: SessionUser): Promise<OwnerDashboardDto> {
  // SPEC.md §2.5: only the projects the caller owns.
  const owned = visibleProjects(actor, "owner");
  const rows = await queryRows<ProjectRow & { description: string }>(
    db,
    projectsQuery(owned, sql`p.created_at desc, p.id`, PORTFOLIO_LIMIT, true),
  );
  const totals = await queryRows<{
    currency: Currency;
    total: string;
    disbursed: string;
    settled: string;
    count: number;
  }>(
    db,
    sql`with visible as (${owned})
        select p.currency, count(*)::int as count, sum(p.total_capital) as total,
               coalesce(sum(r.released), 0) as disbursed, coalesce(sum(r.settled), 0) as settled
        from projects p join visible v on v.project_id = p.id
        left join project_rollups r on r.project_id = p.id
        group by p.currency`,
  );
  // What needs the owner comes first: rejected milestones and those past due, then the next ones due.
  const today = todayIso();
  const attention = await queryRows<MilestoneRow>(
    db,
    upcomingQuery(
      owned,
      sql`m.status <> 'verified' and (m.status = 'rejected' or m.due_date < ${today})`,
      LIMITS.upcomingMilestones,
    ),
  );
  const next = await queryRows<MilestoneRow>(
    db,
    upcomingQuery(
      owned,
      sql`m.status not in ('verified', 'rejected') and m.due_date >= ${today}`,
      LIMITS.upcomingMilestones,
    ),
  );
  const upcoming = [...attention, ...next];
  const sorted = byCurrency(totals);
  return {
    role: "project_owner",
    totalProjects: totals.reduce((n, r) => n + Number(r.count), 0),
    totalValue: sorted.map((r) => ({ currency: r.currency, amount: toMoney(r.total) })),
    fundingProgress: sorted.map((r) => ({
      currency: r.currency,
      percent: progressPercent(toMoney(r.disbursed), toMoney(r.total)),
    })),
    released: sorted.map((r) => ({ currency: r.currency, amount: toMoney(r.disbursed) })),
    settled: sorted.map((r) => ({ currency: r.currency, amount: toMoney(r.settled) })),
    projects: rows.map((r) => ({ ...toProject(r), description: r.description })),
    upcomingMilestones: upcoming.map(toMilestone),
  };
}

const RECENT_PROJECTS = 5;
const VERIFIER_DIRECTORY_LIMIT = 100;

async function adminDashboard(db: DbOrTx, slaDays: number): Promise<AdminDashboardDto> {
  const [totals] = await queryRows<{ projects: number; users: number; verifiers: number }>(
    db,
    sql`select (select count(*)::int from projects) as projects,
               (select count(*)::int from users) as users,
               (select count(*)::int from users where role = 'verifier') as verifiers`,
  );
  const [byStatus] = await queryRows<Record<MilestoneStatus, number>>(
    db,
    sql`select coalesce(sum(milestones_pending), 0)::int as pending,
               coalesce(sum(milestones_in_verification), 0)::int as in_verification,
               coalesce(sum(milestones_verified), 0)::int as verified,
               coalesce(sum(milestones_rejected), 0)::int as rejected,
               coalesce(sum(milestones_delayed), 0)::int as delayed
        from project_rollups`,
  );
  const milestonesByStatus = Object.fromEntries(
    MILESTONE_STATUSES.map((s) => [s, Number(byStatus?.[s] ?? 0)]),
  ) as Record<MilestoneStatus, number>;
  const recent = await queryRows<ProjectRow>(
    db,
    projectsQuery(sql`select id as project_id from projects`, sql`p.created_at desc, p.id`, RECENT_PROJECTS),
  );
  const verifiers = await queryRows<{
    id: string;
    name: string;
    email: string;
    organization: string | null;
    expertise: string[];
    rating: string | null;
    completed: number;
    project_count: number;
  }>(
    db,
    sql`select u.id, u.name, u.email, u.organization, u.expertise, u.rating,
               (select count(*)::int from milestones m
                 where m.verifier_id = u.id and m.status in ('verified', 'rejected')) as completed,
               (select count(*)::int from project_members pm
                 where pm.user_id = u.id and pm.role = 'verifier') as project_count
        from users u where u.role = 'verifier'
        order by u.name, u.id
        limit ${VERIFIER_DIRECTORY_LIMIT}`,
  );
  const turnaround = await verifierTurnaround(db, slaDays, { ids: verifiers.map((v) => v.id) });
  return {
    role: "admin",
    totals: {
      projects: Number(totals?.projects ?? 0),
      users: Number(totals?.users ?? 0),
      verifiers: Number(totals?.verifiers ?? 0),
    },
    milestonesByStatus,
    recentProjects: recent.map((r) => ({
      ...toProject(r),
      createdAt: new Date(r.created_at as string | Date).toISOString(),
    })),
    verifiers: verifiers.map((v) => ({
      id: v.id,
      name: v.name,
      email: v.email,
      organization: v.organization,
      expertise: v.expertise ?? [],
      rating: v.rating === null ? null : Number(v.rating),
      completedVerifications: Number(v.completed),
      projectCount: Number(v.project_count),
      turnaround: turnaroundOf(turnaround, v.id, slaDays),
    })),
  };
}
