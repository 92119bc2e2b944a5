-- Whom a release pays is fixed when it is made: the project's owner then, as their profile named them (id, name,
-- organization). Every instruction of the release names that beneficiary, a re-instruction after a failure too, so an
-- edit of a profile or a transfer of the project between the approval and the payment does not change the payee.
-- The database writes it, whatever the insert says.
ALTER TABLE "disbursements" ADD COLUMN "beneficiary" jsonb;
--> statement-breakpoint
CREATE FUNCTION release_beneficiary() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."beneficiary" := (
    SELECT jsonb_build_object('userId', u."id", 'name', u."name", 'organization', u."organization")
    FROM "project_members" pm JOIN "users" u ON u."id" = pm."user_id"
    WHERE pm."project_id" = NEW."project_id" AND pm."role" = 'owner'
    ORDER BY pm."created_at" LIMIT 1);
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "disbursements_beneficiary" BEFORE INSERT ON "disbursements"
  FOR EACH ROW EXECUTE FUNCTION release_beneficiary();
--> statement-breakpoint
-- Releases made before: the beneficiary their first instruction named, else the project's owner as they stand now.
WITH "instructed" AS (
  SELECT DISTINCT ON (o."payload" -> 'data' ->> 'releaseId') o."payload" -> 'data' ->> 'releaseId' AS "release_id",
         jsonb_build_object('userId', NULL, 'name', o."payload" -> 'data' -> 'beneficiary' ->> 'name',
                            'organization', o."payload" -> 'data' -> 'beneficiary' ->> 'organization') AS "beneficiary"
  FROM "outbox" o
  WHERE o."topic" = 'event' AND o."payload" ->> 'type' = 'release.instructed'
  ORDER BY o."payload" -> 'data' ->> 'releaseId', o."created_at"
), "owners" AS (
  SELECT DISTINCT ON (pm."project_id") pm."project_id",
         jsonb_build_object('userId', u."id", 'name', u."name", 'organization', u."organization") AS "beneficiary"
  FROM "project_members" pm JOIN "users" u ON u."id" = pm."user_id"
  WHERE pm."role" = 'owner'
  ORDER BY pm."project_id", pm."created_at"
)
UPDATE "disbursements" d SET "beneficiary" = coalesce(i."beneficiary", w."beneficiary")
FROM "disbursements" r
LEFT JOIN "instructed" i ON i."release_id" = r."id"::text
LEFT JOIN "owners" w ON w."project_id" = r."project_id"
WHERE r."id" = d."id";
--> statement-breakpoint
CREATE FUNCTION release_beneficiary_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the beneficiary of release % is fixed when it is made', OLD."id" USING ERRCODE = 'TR409';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "disbursements_beneficiary_fixed" BEFORE UPDATE OF "beneficiary" ON "disbursements"
  FOR EACH ROW WHEN (OLD."beneficiary" IS DISTINCT FROM NEW."beneficiary") EXECUTE FUNCTION release_beneficiary_fixed();
