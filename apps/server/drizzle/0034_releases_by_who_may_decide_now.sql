-- A release is made under the project's rule in force and by people who may decide it at that moment, as the
-- application judges a round (services/verification/quorum.ts, access.ts): its policy version is the project's latest
-- (0 when it has none); each approval it names is by a verifier still assigned to the project who neither owns nor
-- invests in it; each countersignature by an investor in the project who neither owns nor verifies it. Migration 0033's
-- checks stand. This holds the rule when the application is bypassed; the application's locks (ADR 035) keep a change
-- to who decides from racing a release, so an ordinary request never meets these refusals.
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
