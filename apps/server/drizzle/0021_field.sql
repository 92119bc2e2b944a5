-- The verifier in the field: a project's site coordinates (decimal degrees, both or neither) and a note per
-- checklist item (what the verifier saw on site).
ALTER TABLE "projects" ADD COLUMN "site_latitude" double precision;
--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "site_longitude" double precision;
--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_site_check" CHECK (("site_latitude" IS NULL) = ("site_longitude" IS NULL) AND ("site_latitude" IS NULL OR ("site_latitude" BETWEEN -90 AND 90 AND "site_longitude" BETWEEN -180 AND 180)));
--> statement-breakpoint
ALTER TABLE "milestones" ADD COLUMN "checklist_notes" jsonb DEFAULT '{}'::jsonb NOT NULL;
