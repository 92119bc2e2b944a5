import { type SQL, sql } from "drizzle-orm";

// What a verifier has completed, one definition for the queue, the Verifiers page and the admin dashboard: every
// milestone they approved (a share of it too) or rejected, from their own decisions, whether or not the decision
// that closed the milestone was theirs (a quorum), and those whose current decision is theirs.

/**
 * The milestones `verifierId` (an SQL expression such as sql`u.id`) decided, as a row set
 * (milestone_id, decided_at, started_at): when they last decided each, and when that verification started.
 */
export const decidedBy = (verifierId: SQL) => sql`(
  -- Per milestone: the milestone's own decision when it is theirs, else their latest decision on it.
  select distinct on (x.milestone_id) x.milestone_id, x.decided_at, x.started_at
  from (
    select m.id as milestone_id, m.verification_date as decided_at, m.started_at, 0 as rank from milestones m
    where m.verifier_id = ${verifierId} and m.status in ('verified', 'rejected') and m.verification_date is not null
    union all
    select d.milestone_id, d.decided_at,
           -- The verification the decision closed began at the round's last start, resumption or reassignment.
           (select max(ae.created_at) from audit_events ae
             where ae.entity_type = 'milestone' and ae.entity_id = d.milestone_id::text
               and ae.action in ('milestone.verification_started', 'milestone.verification_resumed',
                                 'milestone.dispute_assigned')
               and ae.created_at <= d.decided_at),
           1
    from verification_decisions d
    where d.user_id = ${verifierId} and d.kind in ('approve', 'reject')
  ) x
  order by x.milestone_id, x.rank, x.decided_at desc
)`;

/** How many milestones `verifierId` decided (the "Completed" figure). */
export const completedCount = (verifierId: SQL) => sql<number>`(select count(*)::int from ${decidedBy(verifierId)} c)`;
