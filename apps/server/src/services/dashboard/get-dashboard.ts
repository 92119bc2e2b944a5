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
import { inArray, type SQL, sql } from "drizzle-orm";
import type { ServiceContext, SessionUser } from "../../context";
import { type DbOrTx, queryRows } from "../../db/client";
import { milestones } from "../../db/schema";
import { toMoney } from "../../lib/money";
import { projectStatusSql, statusToday } from "../projects/status";
import { openAmount } from "../releases/sums";
import { awaitingVerifier } from "../verification/queue";
import { roundState } from "../verification/quorum";
import { turnaroundOf, verifierTrackRecords } from "../verifiers/turnaround";

/** The caller's projects (project_id, and `owns` when they own it): every project for an admin, else their memberships. */
function visibleProjects(actor: SessionUser): SQL {
  if (actor.role === "admin") return sql`select id as project_id, false as owns from projects`;
  return sql`select project_id, bool_or(role = 'owner') as owns from project_members
             where user_id = ${actor.id} group by project_id`;
}

const CURRENCY_ORDER: Currency[] = ["USD", "EUR", "GBP"];
const byCurrency = <T extends { currency: Currency }>(rows: T[]) =>
  [...rows].sort((a, b) => CURRENCY_ORDER.indexOf(a.currency) - CURRENCY_ORDER.indexOf(b.currency));

type MoneyRow = { currency: Currency; amount: string | null };
const moneyTotals = (rows: MoneyRow[]): MoneyTotal[] =>
  byCurrency(rows.map((r) => ({ currency: r.currency, amount: toMoney(r.amount) })));

export async function getDashboard({ ctx }: { ctx: ServiceContext }): Promise<DashboardDto> {
  const { db, actor } = ctx;
  switch (actor.role) {
    case "investor": {
      // One statement for the investor's whole dashboard, the Overview cards and the milestones that may await their
      // countersignature included; those (few: only under a policy that asks for one) are then judged one by one.
      const figures = await portfolioFigures(db, actor, { withPortfolio: true, withCountersign: true });
      const countersign = await countersignaturesAwaiting(db, figures.countersignCandidates);
      return { overview: overviewOf(figures, investorAction(countersign, figures.atRisk)), role: investorOf(figures) };
    }
    case "project_owner": {
      // One statement too: the Overview over every project they belong to, the rest over those they own.
      const figures = await portfolioFigures(db, actor, { withPortfolio: false, withOwned: true });
      const owner = ownerOf(figures.owned);
      const action = countLabel(owner.rejected, "rejected milestone to revise", "rejected milestones to revise");
      return { overview: overviewOf(figures, action), role: owner.role };
    }
    case "admin": {
      const { overview, role } = await adminDashboard(db, ctx.env.VERIFICATION_SLA_DAYS);
      return { overview, role };
    }
    default:
      return { overview: await getOverview(db, actor), role: { role: "verifier" } };
  }
}

const countLabel = (count: number, one: string, many: string) => ({ count, label: count === 1 ? one : many });

/** An investor's Action Required: the releases awaiting their countersignature first, then at-risk projects. */
function investorAction(countersign: number, atRisk: number): OverviewDto["actionRequired"] {
  if (countersign === 0) return countLabel(atRisk, "at-risk project", "at-risk projects");
  const releases = countLabel(countersign, "release to countersign", "releases to countersign");
  if (atRisk === 0) return releases;
  return {
    count: countersign + atRisk,
    label: `${releases.label} and ${atRisk === 1 ? "an at-risk project" : "at-risk projects"}`,
  };
}

/**
 * An admin's Action Required: what only an admin can move on, most pressing first — disputes waiting for a verifier
 * to be assigned, failed releases to re-instruct or cancel — then projects without a verifier. One kind alone is
 * named as it is; several are named together, their counts summed.
 */
function adminAction(disputes: number, failed: number, withoutVerifier: number): OverviewDto["actionRequired"] {
  const unverified = countLabel(withoutVerifier, "project without a verifier", "projects without a verifier");
  const parts = [
    countLabel(disputes, "dispute to assign", "disputes to assign"),
    countLabel(failed, "failed release", "failed releases"),
    unverified,
  ].filter((part) => part.count > 0);
  if (parts.length <= 1) return parts[0] ?? unverified;
  const labels = parts.map((part) => part.label);
  return {
    count: parts.reduce((n, part) => n + part.count, 0),
    label: `${labels.slice(0, -1).join(", ")} and ${labels.at(-1)}`,
  };
}

/**
 * The milestones in verification that may wait on the caller's countersignature, as JSON ids, for the statement of
 * their dashboard: in the projects they invest in and do not own, under a latest policy that asks for one. Read
 * from those policies (few), then the membership by its key and the project's milestones in verification.
 */
function countersignCandidates(actor: SessionUser): SQL {
  return sql`(select coalesce(json_agg(m.id), '[]') from release_policies rp
      join project_members pm on pm.project_id = rp.project_id and pm.user_id = ${actor.id} and pm.role = 'investor'
      join milestones m on m.project_id = rp.project_id and m.status = 'in_verification'
      where rp.cosign_above is not null
        and rp.version = (select max(r.version) from release_policies r where r.project_id = rp.project_id)
        and not exists (select 1 from project_members o
                        where o.project_id = rp.project_id and o.user_id = ${actor.id} and o.role = 'owner'))`;
}

/**
 * How many of the candidate milestones wait on the investor's countersignature (docs/domain.md "Release rules"),
 * each judged by the same round state an approval is, so the count and the countersign button never disagree.
 */
async function countersignaturesAwaiting(db: DbOrTx, candidates: string[]): Promise<number> {
  if (candidates.length === 0) return 0;
  const rows = await db.select().from(milestones).where(inArray(milestones.id, candidates));
  let awaiting = 0;
  for (const milestone of rows) if ((await roundState(db, milestone)).awaitingCountersign) awaiting++;
  return awaiting;
}

type CurrencyFigures = {
  currency: Currency;
  total: string;
  released: string;
  settled: string;
  pending_capital: string;
  pending_count: number;
  projects: number;
};
type PortfolioFigures = {
  byCurrency: CurrencyFigures[];
  /** Released in the last 30 days (and still released), per currency. */
  recent: MoneyRow[];
  atRisk: number;
  portfolio: ProjectRow[];
  upcoming: MilestoneRow[];
  /** The projects the caller owns, for an owner's dashboard. */
  owned: OwnedFigures | null;
  /** Milestones that may wait on the caller's countersignature (an investor's dashboard). */
  countersignCandidates: string[];
};

/**
 * Everything a member's dashboard shows of the projects they may see, in one statement: their projects and
 * rollups are read once (memberships through project_members_user_idx, then one index lookup per project), and
 * every figure is aggregated from that set, so the cost follows the projects the caller sees and nothing else.
 */
async function portfolioFigures(
  db: DbOrTx,
  actor: SessionUser,
  options: { withPortfolio: boolean; withOwned?: boolean; withCountersign?: boolean },
): Promise<PortfolioFigures> {
  const today = statusToday();
  const portfolio = options.withPortfolio
    ? sql`(select coalesce(json_agg(x), '[]') from (
             select id, name, status, total_capital::text as total_capital, currency,
                    released::text as disbursed, settled::text as settled
             from mine order by name collate natural_order, id limit ${PORTFOLIO_LIMIT}) x)`
    : sql`'[]'::json`;
  const upcoming = options.withPortfolio
    ? upcomingJson(soonestOpen(LIMITS.investorUpcomingMilestones), OPEN, LIMITS.investorUpcomingMilestones)
    : sql`'[]'::json`;
  const [row] = await queryRows<{
    by_currency: CurrencyFigures[];
    recent: MoneyRow[];
    at_risk: number;
    portfolio: ProjectRow[];
    upcoming: MilestoneRow[];
    owned: OwnedFigures | null;
    countersign: string[];
  }>(
    db,
    sql`with mine as materialized (
          select p.id, p.name, ${projectStatusSql("p", "r", today)} as status, p.total_capital, p.currency,
                 ${options.withOwned ? sql`p.created_at, p.description, v.owns,` : sql``}
                 coalesce(r.released, 0) as released, coalesce(r.settled, 0) as settled,
                 coalesce(r.pending_capital, 0) as pending_capital,
                 coalesce(r.milestones_pending + r.milestones_in_verification, 0) as pending_count,
                 coalesce(r.milestones_rejected, 0) as rejected, r.next_open_due_date
          from (${visibleProjects(actor)}) v
          -- One primary-key lookup per visible project ("offset 0" keeps the planner from scanning every
          -- project instead, whose cost would grow with projects the caller cannot see).
          cross join lateral (select * from projects p where p.id = v.project_id offset 0) p
          left join project_rollups r on r.project_id = p.id
        )${options.withOwned ? sql`, owned as (select * from mine where owns)` : sql``}
        select
          (select coalesce(json_agg(c), '[]') from (
             select currency, sum(total_capital)::text as total, sum(released)::text as released,
                    sum(settled)::text as settled, sum(pending_capital)::text as pending_capital,
                    sum(pending_count)::int as pending_count, count(*)::int as projects
             from mine group by currency) c) as by_currency,
          -- released_at is stored in the created_at column (schema.ts: releasedAt: created()).
          (select coalesce(json_agg(d), '[]') from (
             select d.currency, sum(d.amount)::text as amount
             from mine join disbursements d on d.project_id = mine.id
             where d.status in ('instructed', 'settled') and d.created_at > now() - interval '30 days'
             group by d.currency) d) as recent,
          (select count(*)::int from mine where status = 'at_risk') as at_risk,
          ${portfolio} as portfolio,
          ${upcoming} as upcoming,
          ${options.withOwned ? ownedJson(today) : sql`null::json`} as owned,
          ${options.withCountersign ? countersignCandidates(actor) : sql`'[]'::json`} as countersign`,
  );
  return {
    byCurrency: row?.by_currency ?? [],
    recent: row?.recent ?? [],
    atRisk: Number(row?.at_risk ?? 0),
    portfolio: row?.portfolio ?? [],
    upcoming: row?.upcoming ?? [],
    owned: row?.owned ?? null,
    countersignCandidates: row?.countersign ?? [],
  };
}

const OPEN = sql`m.status in ('pending', 'in_verification')`;

/**
 * The projects of the statement's `mine` that can hold one of the first `limit` milestones awaiting a decision (by
 * due date): those whose next such milestone (next_open_due_date, kept with each rollup: migration 0025) is due by
 * the last of the first `limit` among the `limit` projects whose next one is due soonest. Those are real milestones,
 * so the answer's last is due no later; a project whose next is due after it has none to give. An investor sees
 * hundreds of projects and a handful of upcoming milestones: a few projects' milestones are read, not every one's.
 */
function soonestOpen(limit: number): SQL {
  return sql`(select * from mine where next_open_due_date <= (
    select max(c.due_date) from (
      select m.due_date from (
        select * from mine where next_open_due_date is not null order by next_open_due_date, id limit ${limit}
      ) p cross join lateral (
        select m.due_date, m.created_at from milestones m where m.project_id = p.id and ${OPEN}
        order by m.due_date, m.created_at limit ${limit}
      ) m
      order by m.due_date, m.created_at
      limit ${limit}) c))`;
}

/**
 * As JSON, the first `limit` milestones by due date matching `where` across the projects of the statement's CTE
 * `projects` (id, name, currency): each project's first `limit` through milestones_project_idx, then the overall
 * first, so the cost follows the projects the caller sees, never every milestone of that status.
 */
function upcomingJson(projects: SQL, where: SQL, limit: number): SQL {
  return sql`(select coalesce(json_agg(u), '[]') from (
      select m.id, m.title, m.project_id, p.name as project_name, m.due_date,
             m.capital_amount::text as capital_amount, ${openAmount(sql`m`)}::text as open_amount,
             p.currency, m.status
      from ${projects} p cross join lateral (
        select * from milestones m where m.project_id = p.id and ${where}
        order by m.due_date, m.created_at limit ${limit}
      ) m
      order by m.due_date, m.created_at
      limit ${limit}) u)`;
}

/** The Overview cards from released and pending capital per currency and what was released in the last 30 days. */
function overviewOf(
  figures: Pick<PortfolioFigures, "byCurrency" | "recent">,
  actionRequired: OverviewDto["actionRequired"],
): OverviewDto {
  // A month ago's figure is today's less what was released in the last 30 days (and is still released): only
  // recent releases are read, so it costs the same however long the history.
  const recent = new Map(figures.recent.map((r) => [r.currency, toMoney(r.amount)]));
  const protectedRows = figures.byCurrency.filter((r) => toMoney(r.released) > 0);
  const pendingRows = figures.byCurrency.filter((r) => Number(r.pending_count) > 0);
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
    actionRequired,
  };
}

/**
 * A verifier's Overview cards (the other roles' are read with the rest of their dashboard). What waits on them
 * (docs/domain.md "Dashboards and lists") is the verifier queue's count (Pending Verifications), by the same
 * definition.
 */
async function getOverview(db: DbOrTx, actor: SessionUser): Promise<OverviewDto> {
  const [queue] = await queryRows<{ count: number }>(
    db,
    sql`select count(*)::int as count from milestones m where ${awaitingVerifier(actor.id, sql`m`)}`,
  );
  const count = Number(queue?.count ?? 0);
  return overviewOf(
    await portfolioFigures(db, actor, { withPortfolio: false }),
    countLabel(count, "milestone to verify", "milestones to verify"),
  );
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

/** The newest projects with their released capital (from their rollups). */
function newestProjectsQuery(limit: number): SQL {
  return sql`select p.id, p.name, ${projectStatusSql("p", "r")} as status, p.total_capital, p.currency, p.created_at,
           coalesce(r.released, 0) as disbursed, coalesce(r.settled, 0) as settled
    from projects p left join project_rollups r on r.project_id = p.id
    order by p.created_at desc, p.id
    limit ${limit}`;
}

type MilestoneRow = {
  id: string;
  title: string;
  project_id: string;
  project_name: string;
  due_date: string | Date;
  capital_amount: string;
  open_amount: string;
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
  openAmount: toMoney(r.open_amount),
  currency: r.currency,
  status: r.status,
});

// A portfolio is listed up to this many projects (the dashboard says how many there are, and /projects lists them
// all): one huge account never produces a huge response.
const PORTFOLIO_LIMIT = 100;

function investorOf(figures: PortfolioFigures): InvestorDashboardDto {
  const sorted = byCurrency(figures.byCurrency);
  return {
    role: "investor",
    capitalUnderManagement: sorted.map((r) => ({ currency: r.currency, amount: toMoney(r.total) })),
    verifiedDisbursements: sorted.map((r) => ({
      currency: r.currency,
      amount: toMoney(r.released),
      settled: toMoney(r.settled),
      percentOfCommitted: progressPercent(toMoney(r.released), toMoney(r.total)),
    })),
    projectCount: figures.byCurrency.reduce((n, r) => n + Number(r.projects), 0),
    pendingReviewCount: figures.byCurrency.reduce((n, r) => n + Number(r.pending_count), 0),
    riskAlertsCount: figures.atRisk,
    portfolio: figures.portfolio.map(toProject),
    upcomingMilestones: figures.upcoming.map(toMilestone),
  };
}

type OwnedFigures = {
  projects: (ProjectRow & { description: string })[];
  totals: { currency: Currency; count: number; total: string; disbursed: string; settled: string }[];
  rejected: number;
  attention: MilestoneRow[];
  next: MilestoneRow[];
};

/**
 * The owner's dashboard covers only the projects the caller owns (the statement's `owned`, read with the rest of
 * their projects), with the count of rejected milestones the Overview's 'Action Required' shows. What needs the
 * owner comes first: rejected milestones and those past due, then the next ones due.
 */
function ownedJson(today: string): SQL {
  const upcoming = (where: SQL) => upcomingJson(sql`owned`, where, LIMITS.upcomingMilestones);
  return sql`json_build_object(
    'projects', (select coalesce(json_agg(x), '[]') from (
       select id, name, status, total_capital::text as total_capital, currency,
              released::text as disbursed, settled::text as settled,
              case when length(description) > ${LIMITS.ownerDescriptionChars}
                   then left(description, ${LIMITS.ownerDescriptionChars}) || '...' else description end
                as description
       from owned order by created_at desc, id limit ${PORTFOLIO_LIMIT}) x),
    'totals', (select coalesce(json_agg(c), '[]') from (
       select currency, count(*)::int as count, sum(total_capital)::text as total,
              sum(released)::text as disbursed, sum(settled)::text as settled
       from owned group by currency) c),
    'rejected', (select coalesce(sum(rejected), 0)::int from owned),
    'attention', ${upcoming(sql`m.status <> 'verified' and (m.status = 'rejected' or m.due_date < ${today})`)},
    'next', ${upcoming(sql`m.status not in ('verified', 'rejected') and m.due_date >= ${today}`)})`;
}

function ownerOf(owned: OwnedFigures | null): { role: OwnerDashboardDto; rejected: number } {
  const sorted = byCurrency(owned?.totals ?? []);
  return {
    rejected: Number(owned?.rejected ?? 0),
    role: {
      role: "project_owner",
      totalProjects: sorted.reduce((n, r) => n + Number(r.count), 0),
      totalValue: sorted.map((r) => ({ currency: r.currency, amount: toMoney(r.total) })),
      fundingProgress: sorted.map((r) => ({
        currency: r.currency,
        percent: progressPercent(toMoney(r.disbursed), toMoney(r.total)),
      })),
      released: sorted.map((r) => ({ currency: r.currency, amount: toMoney(r.disbursed) })),
      settled: sorted.map((r) => ({ currency: r.currency, amount: toMoney(r.settled) })),
      projects: (owned?.projects ?? []).map((r) => ({ ...toProject(r), description: r.description })),
      upcomingMilestones: [...(owned?.attention ?? []), ...(owned?.next ?? [])].map(toMilestone),
    },
  };
}

const RECENT_PROJECTS = 5;
// The dashboard shows the directory's first few; the whole directory is /verifiers, a page at a time.
const VERIFIER_DIRECTORY_LIMIT = 6;

/**
 * An admin sees every project. Everything but the directory's track record is one statement: the platform's totals
 * per currency (every rollup summed, kept by the database as the rollups and memberships change: migration 0024)
 * serve the Overview cards, the status counts, the project count and the projects without a verifier; beside them
 * the last 30 days' releases, the people, the newest projects and the directory's first verifiers.
 */
async function adminDashboard(
  db: DbOrTx,
  slaDays: number,
): Promise<{ overview: OverviewDto; role: AdminDashboardDto }> {
  type VerifierRow = {
    id: string;
    name: string;
    email: string;
    organization: string | null;
    expertise: string[] | null;
    rating: string | number | null;
    project_count: number;
  };
  const [row] = await queryRows<{
    platform: (CurrencyFigures & Record<MilestoneStatus, number> & { projects: number; without_verifier: number })[];
    recent: MoneyRow[];
    users: number;
    verifiers: number;
    disputes: number;
    failed: number;
    newest: ProjectRow[];
    directory: VerifierRow[];
  }>(
    db,
    sql`select
          (select coalesce(json_agg(t), '[]') from (
             select currency, projects, released::text as released, pending_capital::text as pending_capital,
                    milestones_pending + milestones_in_verification as pending_count,
                    milestones_pending as pending, milestones_in_verification as in_verification,
                    milestones_verified as verified, milestones_rejected as rejected, milestones_delayed as delayed,
                    projects_without_verifier as without_verifier
             from platform_totals) t) as platform,
          -- released_at is stored in the created_at column (schema.ts: releasedAt: created()).
          (select coalesce(json_agg(d), '[]') from (
             select currency, sum(amount)::text as amount from disbursements
             where status in ('instructed', 'settled') and created_at > now() - interval '30 days'
             group by currency) d) as recent,
          (select count(*)::int from users) as users,
          (select count(*)::int from users where role = 'verifier') as verifiers,
          (select count(*)::int from milestone_disputes where closed_at is null and verifier_id is null) as disputes,
          (select count(*)::int from disbursements where status = 'failed') as failed,
          (select coalesce(json_agg(n), '[]') from (
             select id, name, status, total_capital::text as total_capital, currency, created_at,
                    disbursed::text as disbursed, settled::text as settled
             from (${newestProjectsQuery(RECENT_PROJECTS)}) p) n) as newest,
          (select coalesce(json_agg(v order by v.name collate natural_order, v.id), '[]') from (
             select u.id, u.name, u.email, u.organization, u.expertise, u.rating,
                    (select count(*)::int from project_members pm
                      where pm.user_id = u.id and pm.role = 'verifier') as project_count
             from users u where u.role = 'verifier'
             order by u.name collate natural_order, u.id
             limit ${VERIFIER_DIRECTORY_LIMIT}) v) as directory`,
  );
  const platform = row?.platform ?? [];
  const directory = row?.directory ?? [];
  // Each one's turnaround and completed count, from one reading of their decisions.
  const track = await verifierTrackRecords(db, slaDays, { ids: directory.map((v) => v.id) });
  const sum = (pick: (r: (typeof platform)[number]) => number) => platform.reduce((n, r) => n + Number(pick(r)), 0);
  const withoutVerifier = sum((r) => r.without_verifier);
  return {
    overview: overviewOf(
      { byCurrency: platform, recent: row?.recent ?? [] },
      adminAction(Number(row?.disputes ?? 0), Number(row?.failed ?? 0), withoutVerifier),
    ),
    role: {
      role: "admin",
      totals: {
        projects: sum((r) => r.projects),
        users: Number(row?.users ?? 0),
        verifiers: Number(row?.verifiers ?? 0),
      },
      milestonesByStatus: Object.fromEntries(
        MILESTONE_STATUSES.map((status) => [status, sum((r) => r[status] ?? 0)]),
      ) as Record<MilestoneStatus, number>,
      recentProjects: (row?.newest ?? []).map((r) => ({
        ...toProject(r),
        createdAt: new Date(r.created_at as string | Date).toISOString(),
      })),
      verifiers: directory.map((v) => ({
        id: v.id,
        name: v.name,
        email: v.email,
        organization: v.organization,
        expertise: v.expertise ?? [],
        rating: v.rating === null ? null : Number(v.rating),
        completedVerifications: track.get(v.id)?.completed ?? 0,
        projectCount: Number(v.project_count),
        turnaround: turnaroundOf(track, v.id, slaDays),
      })),
    },
  };
}
