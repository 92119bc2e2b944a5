-- A decision stands for the evidence it was made on (ADR 037). A milestone counts the changes to its evidence
-- (evidence_version: every statement that adds or removes a file of it adds one); a decision records the count it was
-- made at, written by the database whatever the insert says and never changed; and a release names only decisions
-- made on the milestone's evidence as it stands. The application voids the decisions of an open round when its
-- evidence changes (services/evidence/voids.ts), so an ordinary request never meets this refusal. Rows made before
-- start at 0 on both sides, as they stand.
ALTER TABLE "milestones" ADD COLUMN "evidence_version" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "verification_decisions" ADD COLUMN "evidence_version" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE FUNCTION evidence_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "milestones" SET "evidence_version" = "evidence_version" + 1
    WHERE "id" IN (SELECT DISTINCT "milestone_id" FROM new_rows);
  ELSE
    UPDATE "milestones" SET "evidence_version" = "evidence_version" + 1
    WHERE "id" IN (SELECT DISTINCT "milestone_id" FROM old_rows);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "evidence_added" AFTER INSERT ON "evidence" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION evidence_changed();
--> statement-breakpoint
CREATE TRIGGER "evidence_removed" AFTER DELETE ON "evidence" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION evidence_changed();
--> statement-breakpoint
CREATE FUNCTION decision_evidence_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW."evidence_version" := (SELECT "evidence_version" FROM "milestones" WHERE "id" = NEW."milestone_id");
  ELSIF NEW."evidence_version" IS DISTINCT FROM OLD."evidence_version" THEN
    RAISE EXCEPTION 'the evidence decision % was made on is fixed when it is made', OLD."id" USING ERRCODE = 'TR409';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "verification_decisions_evidence_version" BEFORE INSERT OR UPDATE OF "evidence_version"
  ON "verification_decisions" FOR EACH ROW EXECUTE FUNCTION decision_evidence_version();
--> statement-breakpoint
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
    SELECT 1 FROM "verification_decisions" d JOIN "milestones" m ON m."id" = NEW."milestone_id"
    WHERE d."id" = ANY (NEW."decision_ids") AND d."evidence_version" <> m."evidence_version"
  ) THEN
    RAISE EXCEPTION 'release of milestone % names a decision made on other evidence than the milestone now holds',
      NEW."milestone_id" USING ERRCODE = 'TR409';
  END IF;
  IF EXISTS (
    SELECT 1 FROM "verification_decisions" d
    WHERE d."id" = ANY (NEW."decision_ids") AND d."kind" = 'approve' AND d."amount" IS NOT NULL
      AND NEW."amount" > d."amount"
  ) THEN
    RAISE EXCEPTION 'release of milestone % (round %) is more than an approval it names agreed to',
      NEW."milestone_id", NEW."round" USING ERRCODE = 'TR409';
  END IF;
  IF NEW."policy_version" <> coalesce(
    (SELECT max(rp."version") FROM "release_policies" rp WHERE rp."project_id" = NEW."project_id"), 0)
  THEN
    RAISE EXCEPTION 'release of milestone % is made under policy version %, not the project''s latest',
      NEW."milestone_id", NEW."policy_version" USING ERRCODE = 'TR409';
  END IF;
  IF EXISTS (
    SELECT 1 FROM "verification_decisions" d JOIN "users" u ON u."id" = d."user_id"
    WHERE d."id" = ANY (NEW."decision_ids")
      AND (u."role" <> CASE d."kind" WHEN 'approve' THEN 'verifier' ELSE 'investor' END
        OR NOT EXISTS (
          SELECT 1 FROM "project_members" pm
          WHERE pm."project_id" = NEW."project_id" AND pm."user_id" = d."user_id"
            AND pm."role" = CASE d."kind" WHEN 'approve' THEN 'verifier' ELSE 'investor' END)
        OR EXISTS (
          SELECT 1 FROM "project_members" pm
          WHERE pm."project_id" = NEW."project_id" AND pm."user_id" = d."user_id"
            AND pm."role" <> CASE d."kind" WHEN 'approve' THEN 'verifier' ELSE 'investor' END))
  ) THEN
    RAISE EXCEPTION 'release of milestone % names a decision by someone who may not decide it now',
      NEW."milestone_id" USING ERRCODE = 'TR409';
  END IF;
  RETURN NULL;
END;
$$;
