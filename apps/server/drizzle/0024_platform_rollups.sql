-- Platform totals (issue 26): the admin's dashboard summed all 10,000 rollup rows on every answer. platform_rollups
-- holds those sums per currency, kept by the database itself: a trigger on project_rollups adds each row's change
-- as it is written, in the same transaction, so no code path can forget it. Rollup rows change only under the
-- audit record's lock (services/projects/rollup.ts), so the three currency rows add no new contention.
-- `rollups verify` compares the totals with a sum over project_rollups and --fix rebuilds them.
CREATE TABLE "platform_rollups" (
  "currency" text PRIMARY KEY NOT NULL,
  "projects" integer NOT NULL,
  "released" numeric(20, 2) NOT NULL,
  "settled" numeric(20, 2) NOT NULL,
  "pending_capital" numeric(20, 2) NOT NULL,
  "milestones_total" integer NOT NULL,
  "milestones_pending" integer NOT NULL,
  "milestones_in_verification" integer NOT NULL,
  "milestones_verified" integer NOT NULL,
  "milestones_rejected" integer NOT NULL,
  "milestones_delayed" integer NOT NULL
);
--> statement-breakpoint
-- What platform_rollups must hold: the sum of every project's rollup, per currency.
CREATE VIEW "platform_rollup_expected" AS
SELECT currency, count(*)::int AS projects,
       sum(released)::numeric(20, 2) AS released, sum(settled)::numeric(20, 2) AS settled,
       sum(pending_capital)::numeric(20, 2) AS pending_capital,
       sum(milestones_total)::int AS milestones_total, sum(milestones_pending)::int AS milestones_pending,
       sum(milestones_in_verification)::int AS milestones_in_verification,
       sum(milestones_verified)::int AS milestones_verified, sum(milestones_rejected)::int AS milestones_rejected,
       sum(milestones_delayed)::int AS milestones_delayed
FROM project_rollups GROUP BY currency;
--> statement-breakpoint
-- Adds one project rollup row to its currency's totals (sign 1) or takes it away (sign -1).
CREATE FUNCTION platform_rollups_add(r project_rollups, sign integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO platform_rollups AS t VALUES (
    r.currency, sign, sign * r.released, sign * r.settled, sign * r.pending_capital, sign * r.milestones_total,
    sign * r.milestones_pending, sign * r.milestones_in_verification, sign * r.milestones_verified,
    sign * r.milestones_rejected, sign * r.milestones_delayed)
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
    milestones_delayed = t.milestones_delayed + excluded.milestones_delayed;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION platform_rollups_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM platform_rollups_add(OLD, -1);
    -- A currency no project uses any more has no totals (as a sum over no rows has none).
    IF TG_OP = 'DELETE' OR OLD.currency IS DISTINCT FROM NEW.currency THEN
      DELETE FROM platform_rollups WHERE currency = OLD.currency AND projects = 0;
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM platform_rollups_add(NEW, 1);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION platform_rollups_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM platform_rollups;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER platform_rollups_insert_delete AFTER INSERT OR DELETE ON "project_rollups"
  FOR EACH ROW EXECUTE FUNCTION platform_rollups_track();
--> statement-breakpoint
-- A refresh rewrites the whole row; only a change to a summed column touches the totals (the latest activity,
-- written by every audited event, does not).
CREATE TRIGGER platform_rollups_update AFTER UPDATE ON "project_rollups"
  FOR EACH ROW WHEN (
    (OLD.currency, OLD.released, OLD.settled, OLD.pending_capital, OLD.milestones_total, OLD.milestones_pending,
     OLD.milestones_in_verification, OLD.milestones_verified, OLD.milestones_rejected, OLD.milestones_delayed)
    IS DISTINCT FROM
    (NEW.currency, NEW.released, NEW.settled, NEW.pending_capital, NEW.milestones_total, NEW.milestones_pending,
     NEW.milestones_in_verification, NEW.milestones_verified, NEW.milestones_rejected, NEW.milestones_delayed))
  EXECUTE FUNCTION platform_rollups_track();
--> statement-breakpoint
CREATE TRIGGER platform_rollups_truncate AFTER TRUNCATE ON "project_rollups"
  FOR EACH STATEMENT EXECUTE FUNCTION platform_rollups_clear();
--> statement-breakpoint
INSERT INTO "platform_rollups" SELECT * FROM "platform_rollup_expected";
--> statement-breakpoint
-- The read cache (ADR 018): the totals are platform-wide, and change only with a project's rollup, which notes its
-- project in the same transaction.
INSERT INTO "data_change_scopes" ("table_name", "scopes") VALUES
  ('platform_rollups', '{o}');
--> statement-breakpoint
SELECT track_data_changes('platform_rollups');
--> statement-breakpoint
-- A verifier's decided milestones, newest first, read from the index alone: their Completed count (a hash of the
-- ids) and their turnaround (the start of each) no longer visit a heap page per milestone. It replaces the index
-- that asked for a start as well, which no query could use.
DROP INDEX "milestones_verifier_decided_idx";
--> statement-breakpoint
CREATE INDEX "milestones_verifier_decided_idx" ON "milestones" USING btree ("verifier_id", "verification_date" DESC)
  INCLUDE ("id", "started_at")
  WHERE "status" IN ('verified', 'rejected') AND "verification_date" IS NOT NULL;
