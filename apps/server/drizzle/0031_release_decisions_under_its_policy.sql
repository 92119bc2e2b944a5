-- A release names the decisions that made it: counting approvals or countersignatures of its own round, made under
-- the policy version the release records. A policy change voids the decisions of rounds still open
-- (services/release-policy/set.ts); this holds the rule when the application is bypassed.
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
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- One live decision of each kind per verifier and round. A policy change voids the decisions of a round still open
-- without moving it to the next, and each verifier then decides again in the same round.
DROP INDEX "verification_decisions_once_key";
--> statement-breakpoint
CREATE UNIQUE INDEX "verification_decisions_once_key" ON "verification_decisions" ("milestone_id", "round", "user_id", "kind")
  WHERE "voided_at" IS NULL;
