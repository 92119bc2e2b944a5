-- A release is never more than any approval it names agreed to. An approval records the amount it agreed to (its
-- share of what was open then); a release cancelled after it gives its amount back to the milestone, not to that
-- approval, and the rest stays open for a follow-up round (services/verification/quorum.ts). This holds the rule
-- when the application is bypassed.
CREATE OR REPLACE FUNCTION release_decisions_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(NEW."decision_ids") = 0 OR EXISTS (
    SELECT 1 FROM unnest(NEW."decision_ids") AS wanted("id")
    WHERE NOT EXISTS (
      SELECT 1 FROM "verification_decisions" d
      WHERE d."id" = wanted."id" AND d."milestone_id" = NEW."milestone_id" AND d."round" = NEW."round"
        AND d."kind" IN ('approve', 'countersign') AND d."voided_at" IS NULL
        AND d."policy_version" = NEW."policy_version")
  ) THEN
    RAISE EXCEPTION 'release of milestone % (round %, policy version %) names no counting decision of its round and policy',
      NEW."milestone_id", NEW."round", NEW."policy_version" USING ERRCODE = 'TR409';
  END IF;
  IF EXISTS (
    SELECT 1 FROM "verification_decisions" d
    WHERE d."id" = ANY (NEW."decision_ids") AND d."kind" = 'approve' AND d."amount" IS NOT NULL
      AND NEW."amount" > d."amount"
  ) THEN
    RAISE EXCEPTION 'release of milestone % (round %) is more than an approval it names agreed to',
      NEW."milestone_id", NEW."round" USING ERRCODE = 'TR409';
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- A release is made in its project's currency, and a project's currency cannot change under its releases: the pair
-- is a foreign key. An insert takes a key-share lock on the project row; a currency change is a key update, so it
-- waits for a release being made and is then refused, and a release made after the change is refused.
CREATE UNIQUE INDEX "projects_id_currency_key" ON "projects" ("id", "currency");
--> statement-breakpoint
ALTER TABLE "disbursements" ADD CONSTRAINT "disbursements_project_currency_fkey"
  FOREIGN KEY ("project_id", "currency") REFERENCES "projects" ("id", "currency") NOT VALID;
--> statement-breakpoint
-- Checked for every release already made when none is in another currency than its project's; otherwise new ones
-- are checked from now on and `rollups verify` names the old ones.
DO $$
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM "disbursements" d JOIN "projects" p ON p."id" = d."project_id" WHERE d."currency" <> p."currency"
  ) THEN
    ALTER TABLE "disbursements" VALIDATE CONSTRAINT "disbursements_project_currency_fkey";
  END IF;
END;
$$;
--> statement-breakpoint
-- Nor while a milestone is in verification: its verifier approves amounts in the currency they were shown, and the
-- release that follows is made in the project's currency at that moment.
CREATE FUNCTION project_currency_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "milestones" m WHERE m."project_id" = NEW."id" AND m."status" = 'in_verification') THEN
    RAISE EXCEPTION 'the currency of project % cannot change while a milestone is in verification', NEW."id"
      USING ERRCODE = 'TR409';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "projects_currency_while_verifying" BEFORE UPDATE OF "currency" ON "projects"
  FOR EACH ROW WHEN (OLD."currency" IS DISTINCT FROM NEW."currency") EXECUTE FUNCTION project_currency_guard();
