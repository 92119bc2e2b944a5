-- A caller's visible projects from the membership index alone (dashboards and lists), and a verifier's latest
-- decisions first (turnaround reads only the most recent ones, however long the history); which projects have a
-- verifier, from an index alone.
DROP INDEX "project_members_user_idx";--> statement-breakpoint
CREATE INDEX "project_members_user_idx" ON "project_members" USING btree ("user_id","role","project_id");--> statement-breakpoint
CREATE INDEX "milestones_verifier_decided_idx" ON "milestones" USING btree ("verifier_id","verification_date" DESC NULLS LAST,"started_at") WHERE "milestones"."status" in ('verified', 'rejected') and "milestones"."started_at" is not null;--> statement-breakpoint
CREATE INDEX "project_members_verifier_idx" ON "project_members" USING btree ("project_id") WHERE "project_members"."role" = 'verifier';
