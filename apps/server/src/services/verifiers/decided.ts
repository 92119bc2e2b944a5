import { type SQL, sql } from "drizzle-orm";

// What a verifier has completed, one definition for the queue, the Verifiers page and the admin dashboard: every
// milestone they approved (a share of it too) or rejected, from their own decisions, whether or not the decision
// that closed the milestone was theirs (a quorum), and those whose current decision is theirs.

/** The milestones whose own (closing) decision is `verifierId`'s, when it was made and when the round began. */
const ownDecisions = (verifierId: SQL) => sql`
  select m.id as milestone_id, m.verification_date as decided_at, m.started_at as own_started_at, true as own
  from milestones m
  where m.verifier_id = ${verifierId} and m.status in ('verified', 'rejected') and m.verification_date is not null`;

/** Every approval (of a share too) or rejection `verifierId` recorded, a quorum's included. */
const recordedDecisions = (verifierId: SQL) => sql`
  select d.milestone_id, d.decided_at, null::timestamptz as own_started_at, false as own
  from verification_decisions d
  where d.user_id = ${verifierId} and d.kind in ('approve', 'reject')`;

/**
 * The milestones `verifierId` (an SQL expression such as sql`u.id`) decided, as a row set
 * (milestone_id, decided_at, own_started_at, own): when they last decided each; `own` when the milestone's own
 * (closing) decision is theirs, whose start is then the milestone's (own_started_at). No start is looked up
 * here, so counting a long history stays cheap.
 */
export const decidedBy = (verifierId: SQL) => sql`(
  -- Per milestone: the milestone's own decision when it is theirs, else their latest decision on it.
  select distinct on (x.milestone_id) x.milestone_id, x.decided_at, x.own_started_at, x.own
  from (${ownDecisions(verifierId)} union all ${recordedDecisions(verifierId)}) x
  order by x.milestone_id, x.own desc, x.decided_at desc
)`;

/**
 * When the verification that a decided milestone (`c`, a row of decidedBy) closed began: the milestone's start
 * when the closing decision is theirs, else the round's last start, resumption or reassignment before it.
 */
export const decisionStartedAt = (c: SQL) => sql`(case when ${c}.own then ${c}.own_started_at else (
  select max(ae.created_at) from audit_events ae
  where ae.entity_type = 'milestone' and ae.entity_id = ${c}.milestone_id::text
    and ae.action in ('milestone.verification_started', 'milestone.verification_resumed', 'milestone.dispute_assigned')
    and ae.created_at <= ${c}.decided_at) end)`;

/**
 * How many milestones `verifierId` decided (the "Completed" figure): decidedBy's milestones, counted as one hashed
 * UNION of the two id lists, since only how many there are is asked (no decision is ordered or picked).
 */
export const completedCount = (verifierId: SQL) => sql<number>`(select count(*)::int from (
  select milestone_id from (${ownDecisions(verifierId)}) own
  union
  select milestone_id from (${recordedDecisions(verifierId)}) recorded
) c)`;
