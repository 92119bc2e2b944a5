-- The platform totals (migration 0024) as a base row per currency plus appended deltas (ADR 039). Every rollup
-- refresh that moved a summed figure updated its currency's one row, so every release of a currency rewrote the same
-- row (a new version of it each time, and a third of the refresh's time under load). Now the trigger on
-- project_rollups appends the change as a row of signed deltas, and readers sum the base and the deltas
-- (platform_totals). compact_platform_rollups() folds the deltas into the base rows in one statement (each process
-- runs it every minute), so the sum a reader sees is the same before and after: at every commit, platform_totals
-- equals platform_rollup_expected.
CREATE TABLE "platform_rollup_deltas" (
  "currency" text NOT NULL,
  "projects" integer NOT NULL,
  "released" numeric(20, 2) NOT NULL,
  "settled" numeric(20, 2) NOT NULL,
  "pending_capital" numeric(20, 2) NOT NULL,
  "milestones_total" integer NOT NULL,
  "milestones_pending" integer NOT NULL,
  "milestones_in_verification" integer NOT NULL,
  "milestones_verified" integer NOT NULL,
  "milestones_rejected" integer NOT NULL,
  "milestones_delayed" integer NOT NULL,
  "projects_without_verifier" integer NOT NULL
);
--> statement-breakpoint
-- What the platform's totals are: each currency's base row and its deltas, summed. A currency no project uses any
-- more has none (as a sum over no rows has none).
CREATE VIEW "platform_totals" AS
SELECT currency, sum(projects)::int AS projects,
       sum(released)::numeric(20, 2) AS released, sum(settled)::numeric(20, 2) AS settled,
       sum(pending_capital)::numeric(20, 2) AS pending_capital,
       sum(milestones_total)::int AS milestones_total, sum(milestones_pending)::int AS milestones_pending,
       sum(milestones_in_verification)::int AS milestones_in_verification,
       sum(milestones_verified)::int AS milestones_verified, sum(milestones_rejected)::int AS milestones_rejected,
       sum(milestones_delayed)::int AS milestones_delayed,
       sum(projects_without_verifier)::int AS projects_without_verifier
FROM (SELECT * FROM platform_rollups UNION ALL SELECT * FROM platform_rollup_deltas) t
GROUP BY currency HAVING sum(projects) <> 0;
--> statement-breakpoint
-- Adds one project rollup row to its currency's totals (sign 1) or takes it away (sign -1): a delta row.
CREATE OR REPLACE FUNCTION platform_rollups_add(r project_rollups, sign integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO platform_rollup_deltas VALUES (
    r.currency, sign, sign * r.released, sign * r.settled, sign * r.pending_capital, sign * r.milestones_total,
    sign * r.milestones_pending, sign * r.milestones_in_verification, sign * r.milestones_verified,
    sign * r.milestones_rejected, sign * r.milestones_delayed, sign * (r.verifiers = 0)::int);
END;
$$;
--> statement-breakpoint
-- A refresh within one currency (nearly every one) is one delta row, the new figures less the old.
CREATE OR REPLACE FUNCTION platform_rollups_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.currency = NEW.currency THEN
    INSERT INTO platform_rollup_deltas VALUES (
      NEW.currency, 0, NEW.released - OLD.released, NEW.settled - OLD.settled,
      NEW.pending_capital - OLD.pending_capital, NEW.milestones_total - OLD.milestones_total,
      NEW.milestones_pending - OLD.milestones_pending,
      NEW.milestones_in_verification - OLD.milestones_in_verification,
      NEW.milestones_verified - OLD.milestones_verified, NEW.milestones_rejected - OLD.milestones_rejected,
      NEW.milestones_delayed - OLD.milestones_delayed, (NEW.verifiers = 0)::int - (OLD.verifiers = 0)::int);
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM platform_rollups_add(OLD, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM platform_rollups_add(NEW, 1);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION platform_rollups_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM platform_rollups;
  DELETE FROM platform_rollup_deltas;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Folds every committed delta into its currency's base row, in one statement: a reader sees the deltas or the base
-- they went into, never both or neither. Deltas committed meanwhile stay for the next run; two runs at once fold
-- each delta once (the second skips the rows the first deleted). Base rows left at no project go. Returns how many
-- deltas it folded.
CREATE FUNCTION compact_platform_rollups() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  folded integer;
BEGIN
  WITH moved AS (DELETE FROM platform_rollup_deltas RETURNING *),
  summed AS (
    SELECT currency, sum(projects)::int AS projects, sum(released) AS released, sum(settled) AS settled,
           sum(pending_capital) AS pending_capital, sum(milestones_total)::int AS milestones_total,
           sum(milestones_pending)::int AS milestones_pending,
           sum(milestones_in_verification)::int AS milestones_in_verification,
           sum(milestones_verified)::int AS milestones_verified, sum(milestones_rejected)::int AS milestones_rejected,
           sum(milestones_delayed)::int AS milestones_delayed,
           sum(projects_without_verifier)::int AS projects_without_verifier, count(*)::int AS n
    FROM moved GROUP BY currency),
  upserted AS (
    INSERT INTO platform_rollups AS t
    SELECT currency, projects, released, settled, pending_capital, milestones_total, milestones_pending,
           milestones_in_verification, milestones_verified, milestones_rejected, milestones_delayed,
           projects_without_verifier
    FROM summed
    ON CONFLICT (currency) DO UPDATE SET
      projects = t.projects + excluded.projects,
      released = t.released + excluded.released,
      settled = t.settled + excluded.settled,
      pending_capital = t.pending_capital + excluded.pending_capital,
      milestones_total = t.milestones_total + excluded.milestones_total,
      milestones_pending = t.milestones_pending + excluded.milestones_pending,
      milestones_in_verification = t.milestones_in_verification + excluded.milestones_in_verification,
      milestones_verified = t.milestones_verified + excluded.milestones_verified,
      milestones_rejected = t.milestones_rejected + excluded.milestones_rejected,
      milestones_delayed = t.milestones_delayed + excluded.milestones_delayed,
      projects_without_verifier = t.projects_without_verifier + excluded.projects_without_verifier
    RETURNING 1)
  SELECT coalesce(sum(n), 0)::int INTO folded FROM summed;
  DELETE FROM platform_rollups WHERE projects = 0;
  RETURN folded;
END;
$$;
--> statement-breakpoint
-- The read cache (ADR 018): as platform_rollups, platform-wide.
INSERT INTO "data_change_scopes" ("table_name", "scopes") VALUES
  ('platform_rollup_deltas', '{o}');
--> statement-breakpoint
SELECT track_data_changes('platform_rollup_deltas');
