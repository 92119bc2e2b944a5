-- Invariants that protect money, held by the database whatever the code does (docs/domain.md "Integrity").
-- The application checks first and answers with a friendly message; these triggers are the guarantee.

-- The organization that release rules compare is set by an admin, never self-declared.
ALTER TABLE "users" ADD COLUMN "verified_organization" text;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "organization_verified_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "organization_verified_by" uuid REFERENCES "users"("id") ON DELETE SET NULL;
--> statement-breakpoint
-- Each decision keeps the verified organization in force when it was made, and an approval the amount it agreed to.
ALTER TABLE "verification_decisions" ADD COLUMN "organization" text;
--> statement-breakpoint
ALTER TABLE "verification_decisions" ADD COLUMN "amount" numeric(20, 2);
--> statement-breakpoint
UPDATE "verification_decisions" d SET "organization" = nullif(trim(u."organization"), '')
  FROM "users" u WHERE u."id" = d."user_id";
--> statement-breakpoint
-- A release records the decisions that made it (its round is already on the row).
ALTER TABLE "disbursements" ADD COLUMN "decision_ids" uuid[] DEFAULT '{}' NOT NULL;
--> statement-breakpoint
UPDATE "disbursements" r SET "decision_ids" = coalesce((
  SELECT array_agg(d."id" ORDER BY d."decided_at", d."id") FROM "verification_decisions" d
  WHERE d."milestone_id" = r."milestone_id" AND d."round" = r."round" AND d."kind" IN ('approve', 'countersign')
    AND d."voided_at" IS NULL), '{}');
--> statement-breakpoint
CREATE OR REPLACE FUNCTION milestone_status_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."verification_round" < OLD."verification_round" THEN
    RAISE EXCEPTION 'milestone %: its verification round cannot go back', OLD."id" USING ERRCODE = 'TR409';
  END IF;
  IF NEW."status" IS NOT DISTINCT FROM OLD."status" THEN
    RETURN NEW;
  END IF;
  -- The transition table of packages/domain (MILESTONE_TRANSITIONS); verified is final.
  IF (OLD."status", NEW."status") NOT IN (
    ('pending', 'in_verification'), ('delayed', 'in_verification'),
    ('in_verification', 'verified'), ('in_verification', 'pending'), ('in_verification', 'rejected'),
    ('rejected', 'pending'), ('rejected', 'in_verification'), ('rejected', 'delayed'),
    ('pending', 'delayed'), ('delayed', 'pending')
  ) THEN
    RAISE EXCEPTION 'milestone %: % → % is not a transition', OLD."id", OLD."status", NEW."status"
      USING ERRCODE = 'TR409';
  END IF;
  -- Leaving a rejection, or releasing part of a milestone, closes the round: its decisions stop counting.
  IF (OLD."status" = 'rejected' OR (OLD."status", NEW."status") = ('in_verification', 'pending'))
     AND NEW."verification_round" <= OLD."verification_round" THEN
    RAISE EXCEPTION 'milestone %: % → % must close the round', OLD."id", OLD."status", NEW."status"
      USING ERRCODE = 'TR409';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "milestones_status_guard" BEFORE UPDATE ON "milestones"
  FOR EACH ROW EXECUTE FUNCTION milestone_status_guard();
--> statement-breakpoint
-- A milestone's releases (cancelled ones excepted) never sum above its amount. The milestone row is locked first,
-- so two transactions releasing on one milestone check one after the other and the second sees the first.
CREATE OR REPLACE FUNCTION check_milestone_releases(target uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  amount numeric;
  released numeric;
BEGIN
  SELECT m."capital_amount" INTO amount FROM "milestones" m WHERE m."id" = target FOR UPDATE;
  SELECT coalesce(sum(r."amount"), 0) INTO released FROM "disbursements" r
    WHERE r."milestone_id" = target AND r."status" <> 'cancelled';
  IF released > amount THEN
    RAISE EXCEPTION 'milestone %: releases of % exceed its amount of %', target, released, amount
      USING ERRCODE = 'TR409';
  END IF;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION release_within_amount() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM check_milestone_releases(NEW."milestone_id");
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION amount_covers_releases() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM check_milestone_releases(NEW."id");
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "disbursements_within_amount" AFTER INSERT OR UPDATE OF "amount", "status", "milestone_id"
  ON "disbursements" FOR EACH ROW EXECUTE FUNCTION release_within_amount();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "milestones_amount_covers_releases" AFTER UPDATE OF "capital_amount" ON "milestones"
  FOR EACH ROW EXECUTE FUNCTION amount_covers_releases();
--> statement-breakpoint
-- A new release names the decisions that made it: counting approvals or countersignatures of its own round.
CREATE OR REPLACE FUNCTION release_decisions_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(NEW."decision_ids") = 0 OR EXISTS (
    SELECT 1 FROM unnest(NEW."decision_ids") AS wanted("id")
    WHERE NOT EXISTS (
      SELECT 1 FROM "verification_decisions" d
      WHERE d."id" = wanted."id" AND d."milestone_id" = NEW."milestone_id" AND d."round" = NEW."round"
        AND d."kind" IN ('approve', 'countersign') AND d."voided_at" IS NULL)
  ) THEN
    RAISE EXCEPTION 'release of milestone % (round %) names no counting decision of its round',
      NEW."milestone_id", NEW."round" USING ERRCODE = 'TR409';
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "disbursements_made_by_decisions" AFTER INSERT ON "disbursements"
  FOR EACH ROW EXECUTE FUNCTION release_decisions_guard();
