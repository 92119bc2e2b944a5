-- Platform totals (issue 26): the admin's dashboard summed all 10,000 rollup rows, and read every project against its
-- members for "projects without a verifier", on every answer. platform_rollups holds those figures per currency,
-- kept by the database itself: a trigger on project_rollups adds each row's change as it is written, in the same
-- transaction, so no code path can forget it, and a trigger on project_members keeps each rollup's count of
-- verifiers. Rollup rows change only under the audit record's lock (services/projects/rollup.ts), so the three
-- currency rows add no new contention. `rollups verify` compares the totals with a sum over project_rollups (and
-- the verifier counts with a recomputation) and --fix rebuilds them.
ALTER TABLE "project_rollups" ADD COLUMN "verifiers" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- What a project's rollup must hold: as before (migration 0018), and the number of its verifiers.
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
  (SELECT count(*) FROM project_members pm WHERE pm.project_id = p.id AND pm.role = 'verifier')::int AS verifiers
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
UPDATE "project_rollups" r SET "verifiers" = e.verifiers
FROM "project_rollup_expected" e WHERE e.project_id = r.project_id AND r.verifiers <> e.verifiers;
--> statement-breakpoint
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
  "milestones_delayed" integer NOT NULL,
  "projects_without_verifier" integer NOT NULL
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
       sum(milestones_delayed)::int AS milestones_delayed,
       (count(*) FILTER (WHERE verifiers = 0))::int AS projects_without_verifier
FROM project_rollups GROUP BY currency;
--> statement-breakpoint
-- Adds one project rollup row to its currency's totals (sign 1) or takes it away (sign -1).
CREATE FUNCTION platform_rollups_add(r project_rollups, sign integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO platform_rollups AS t VALUES (
    r.currency, sign, sign * r.released, sign * r.settled, sign * r.pending_capital, sign * r.milestones_total,
    sign * r.milestones_pending, sign * r.milestones_in_verification, sign * r.milestones_verified,
    sign * r.milestones_rejected, sign * r.milestones_delayed, sign * (r.verifiers = 0)::int)
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
    projects_without_verifier = t.projects_without_verifier + excluded.projects_without_verifier;
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
-- A refresh rewrites the whole row; only a change to a summed figure touches the totals (the latest activity,
-- written by every audited event, does not).
CREATE TRIGGER platform_rollups_update AFTER UPDATE ON "project_rollups"
  FOR EACH ROW WHEN (
    (OLD.currency, OLD.released, OLD.settled, OLD.pending_capital, OLD.milestones_total, OLD.milestones_pending,
     OLD.milestones_in_verification, OLD.milestones_verified, OLD.milestones_rejected, OLD.milestones_delayed,
     OLD.verifiers = 0)
    IS DISTINCT FROM
    (NEW.currency, NEW.released, NEW.settled, NEW.pending_capital, NEW.milestones_total, NEW.milestones_pending,
     NEW.milestones_in_verification, NEW.milestones_verified, NEW.milestones_rejected, NEW.milestones_delayed,
     NEW.verifiers = 0))
  EXECUTE FUNCTION platform_rollups_track();
--> statement-breakpoint
CREATE TRIGGER platform_rollups_truncate AFTER TRUNCATE ON "project_rollups"
  FOR EACH STATEMENT EXECUTE FUNCTION platform_rollups_clear();
--> statement-breakpoint
-- A verifier's membership added, removed or changed moves its project's count. The audit record's lock comes first
-- (services/audit/lock.ts, the same key): whatever writes a rollup row holds it, so the order of locks stays the one
-- every transition uses. Every membership change is audited, and so takes that lock anyway.
CREATE FUNCTION project_verifiers_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.role = 'verifier' THEN
    PERFORM pg_advisory_xact_lock(727002);
    UPDATE project_rollups SET verifiers = verifiers - 1 WHERE project_id = OLD.project_id;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.role = 'verifier' THEN
    PERFORM pg_advisory_xact_lock(727002);
    UPDATE project_rollups SET verifiers = verifiers + 1 WHERE project_id = NEW.project_id;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER project_verifiers_track AFTER INSERT OR DELETE OR UPDATE OF role, project_id ON "project_members"
  FOR EACH ROW EXECUTE FUNCTION project_verifiers_track();
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
