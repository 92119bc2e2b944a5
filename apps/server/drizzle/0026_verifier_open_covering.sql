-- A verifier's open verifications and how many are overdue (the admin dashboard's directory, the Verifiers page:
-- services/verifiers/turnaround.ts) from the index alone: it now carries each one's start. Same name and key, so it
-- still serves every lookup by verifier and status; no index is added to what a milestone's update maintains.
DROP INDEX "milestones_verifier_idx";
--> statement-breakpoint
CREATE INDEX "milestones_verifier_idx" ON "milestones" USING btree ("verifier_id", "status") INCLUDE ("started_at");
