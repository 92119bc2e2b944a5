-- One verification report per decision: the report is keyed by the decision it describes (the milestone's
-- verification date when it was submitted); a repeat submit edits that report instead of adding a copy.
ALTER TABLE "verification_reports" ADD COLUMN "decided_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "verification_reports" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;
--> statement-breakpoint
-- Reports written before: each keeps its own time, and the latest one of a milestone becomes the report of the
-- milestone's current decision, so the next submit edits it.
UPDATE "verification_reports" SET "decided_at" = "created_at", "updated_at" = "created_at";
--> statement-breakpoint
UPDATE "verification_reports" r SET "decided_at" = m."verification_date"
FROM "milestones" m
WHERE m."id" = r."milestone_id" AND m."verification_date" IS NOT NULL
  AND r."id" = (
    SELECT x."id" FROM "verification_reports" x WHERE x."milestone_id" = r."milestone_id"
    ORDER BY x."created_at" DESC, x."id" DESC LIMIT 1
  )
  AND NOT EXISTS (
    SELECT 1 FROM "verification_reports" y
    WHERE y."milestone_id" = r."milestone_id" AND y."decided_at" = m."verification_date" AND y."id" <> r."id"
  );
--> statement-breakpoint
ALTER TABLE "verification_reports" ALTER COLUMN "decided_at" SET NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "verification_reports_decision_idx" ON "verification_reports" ("milestone_id", "decided_at");
