-- Each project's earliest due date among its milestones awaiting a decision (pending or in verification). An
-- investor's Upcoming Milestones are the first few such milestones across their projects: with this date known per
-- project, only the projects whose next one could be among those first few are read (services/dashboard), not every
-- project's milestones. Kept like every rollup figure: recomputed from project_rollup_expected in the transaction of
-- each change, and checked by `rollups verify`.
ALTER TABLE "project_rollups" ADD COLUMN "next_open_due_date" date;
--> statement-breakpoint
-- What a project's rollup must hold: as before (migration 0024), and its next open due date (the new last column).
CREATE OR REPLACE VIEW "project_rollup_expected" AS
SELECT
  p.id AS project_id,
  p.currency,
  coalesce(r.released, 0)::numeric(20, 2) AS released,
  coalesce(r.settled, 0)::numeric(20, 2) AS settled,
  coalesce(m.pending_capital, 0)::numeric(20, 2) AS pending_capital,
  coalesce(m.total, 0)::int AS milestones_total,
  coalesce(m.pending, 0)::int AS milestones_pending,
  coalesce(m.in_verification, 0)::int AS milestones_in_verification,
  coalesce(m.verified, 0)::int AS milestones_verified,
  coalesce(m.rejected, 0)::int AS milestones_rejected,
  coalesce(m.delayed, 0)::int AS milestones_delayed,
  m.next_due_date,
  greatest(p.created_at, a.last_at) AS last_activity_at,
  (SELECT count(*) FROM project_members pm WHERE pm.project_id = p.id AND pm.role = 'verifier')::int AS verifiers,
  m.next_open_due_date
FROM projects p
LEFT JOIN LATERAL (
  SELECT sum(d.amount) FILTER (WHERE d.status IN ('instructed', 'settled')) AS released,
         sum(d.amount) FILTER (WHERE d.status = 'settled') AS settled
  FROM disbursements d WHERE d.project_id = p.id AND d.currency = p.currency
) r ON true
LEFT JOIN LATERAL (
  SELECT count(*) AS total,
         count(*) FILTER (WHERE ms.status = 'pending') AS pending,
         count(*) FILTER (WHERE ms.status = 'in_verification') AS in_verification,
         count(*) FILTER (WHERE ms.status = 'verified') AS verified,
         count(*) FILTER (WHERE ms.status = 'rejected') AS rejected,
         count(*) FILTER (WHERE ms.status = 'delayed') AS delayed,
         sum(milestone_open_amount(ms.id, ms.capital_amount))
           FILTER (WHERE ms.status IN ('pending', 'in_verification')) AS pending_capital,
         min(ms.due_date) FILTER (WHERE ms.status <> 'verified') AS next_due_date,
         min(ms.due_date) FILTER (WHERE ms.status IN ('pending', 'in_verification')) AS next_open_due_date
  FROM milestones ms WHERE ms.project_id = p.id
) m ON true
LEFT JOIN LATERAL (
  SELECT max(ae.created_at) AS last_at FROM audit_events ae WHERE ae.project_id = p.id
) a ON true;
--> statement-breakpoint
UPDATE "project_rollups" r SET "next_open_due_date" = e.next_open_due_date
FROM "project_rollup_expected" e WHERE e.project_id = r.project_id AND e.next_open_due_date IS NOT NULL;
