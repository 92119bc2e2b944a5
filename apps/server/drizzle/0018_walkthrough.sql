-- Walkthrough fixes (issue 23).
-- What is still open on a milestone: its amount less every release of it that was not cancelled (a failed one is
-- re-instructed, so it still counts). The one definition every pending or upcoming figure sums, in SQL and in
-- the rollup view alike.
CREATE FUNCTION "milestone_open_amount"(milestone_id uuid, capital_amount numeric) RETURNS numeric
LANGUAGE sql STABLE AS $$
  SELECT capital_amount - coalesce((
    SELECT sum(d.amount) FROM disbursements d WHERE d.milestone_id = $1 AND d.status <> 'cancelled'), 0)
$$;
--> statement-breakpoint
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
  greatest(p.created_at, a.last_at) AS last_activity_at
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
         min(ms.due_date) FILTER (WHERE ms.status <> 'verified') AS next_due_date
  FROM milestones ms WHERE ms.project_id = p.id
) m ON true
LEFT JOIN LATERAL (
  SELECT max(ae.created_at) AS last_at FROM audit_events ae WHERE ae.project_id = p.id
) a ON true;
--> statement-breakpoint
UPDATE "project_rollups" r SET "pending_capital" = e.pending_capital
FROM "project_rollup_expected" e WHERE e.project_id = r.project_id;
--> statement-breakpoint
-- Why a decision stopped counting: the transition that voided it ('resubmit', 'delay', 'reassign').
ALTER TABLE "verification_decisions" ADD COLUMN "void_reason" text;
--> statement-breakpoint
-- When the address was shown to be the account's (a sign-up link used; an invitation link proves it too).
-- Accounts made before the link existed keep their creation time.
ALTER TABLE "users" ADD COLUMN "email_verified_at" timestamp with time zone;
--> statement-breakpoint
UPDATE "users" SET "email_verified_at" = "created_at";
--> statement-breakpoint
CREATE TABLE "email_verifications" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "token_hash" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  "used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "email_verifications_token_key" ON "email_verifications" ("token_hash");
--> statement-breakpoint
CREATE INDEX "email_verifications_user_idx" ON "email_verifications" ("user_id");
--> statement-breakpoint
CREATE TRIGGER note_data_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "email_verifications"
  FOR EACH STATEMENT EXECUTE FUNCTION note_data_change();
