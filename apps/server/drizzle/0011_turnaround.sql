-- Turnaround: a verification open longer than VERIFICATION_SLA_DAYS notifies its verifier and the admins once.
-- One row per verification start (a resumed or resubmitted verification starts again); the primary key is what
-- makes the notice once-only across processes.
CREATE TABLE "verification_overdue_notices" (
  "milestone_id" uuid NOT NULL REFERENCES "milestones"("id") ON DELETE CASCADE,
  "started_at" timestamp with time zone NOT NULL,
  "verifier_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "notified_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "verification_overdue_notices_pk" PRIMARY KEY ("milestone_id", "started_at")
);
