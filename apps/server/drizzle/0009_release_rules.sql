-- Release rules (docs/domain.md "Release rules"): a versioned policy per project, each verifier's decision kept on its
-- own row, and the policy version that applied recorded on every release. A project with no policy row follows
-- the default rule (version 0): one approval by the verifier who started, no countersignature.
ALTER TABLE "project_members" ADD COLUMN "is_lead" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
CREATE TABLE "release_policies" (
  "project_id" uuid NOT NULL REFERENCES "projects"("id") ON DELETE CASCADE,
  "version" integer NOT NULL,
  "required_approvals" integer NOT NULL,
  "thresholds" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "distinct_organizations" boolean DEFAULT false NOT NULL,
  "cosign_above" numeric(20, 2),
  "created_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "release_policies_pk" PRIMARY KEY ("project_id", "version"),
  CONSTRAINT "release_policies_version_check" CHECK ("version" >= 1),
  CONSTRAINT "release_policies_approvals_check" CHECK ("required_approvals" BETWEEN 1 AND 5),
  CONSTRAINT "release_policies_cosign_check" CHECK ("cosign_above" IS NULL OR "cosign_above" > 0)
);
--> statement-breakpoint
ALTER TABLE "milestones" ADD COLUMN "verification_round" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
CREATE TABLE "verification_decisions" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "milestone_id" uuid NOT NULL REFERENCES "milestones"("id") ON DELETE CASCADE,
  "round" integer NOT NULL,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE RESTRICT,
  "kind" text NOT NULL,
  "share" numeric(5, 2) DEFAULT 100 NOT NULL,
  "comment" text,
  "policy_version" integer NOT NULL,
  "decided_at" timestamp with time zone DEFAULT now() NOT NULL,
  "voided_at" timestamp with time zone,
  CONSTRAINT "verification_decisions_kind_check" CHECK ("kind" IN ('approve', 'reject', 'countersign')),
  CONSTRAINT "verification_decisions_share_check" CHECK ("share" > 0 AND "share" <= 100)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "verification_decisions_once_key" ON "verification_decisions" ("milestone_id", "round", "user_id", "kind");
--> statement-breakpoint
ALTER TABLE "disbursements" ADD COLUMN "policy_version" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- A partial release closes one round; a milestone releases at most once per round.
ALTER TABLE "disbursements" ADD COLUMN "round" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
DROP INDEX "disbursements_milestone_key";
--> statement-breakpoint
CREATE UNIQUE INDEX "disbursements_milestone_key" ON "disbursements" ("milestone_id", "round");
--> statement-breakpoint
-- The owner disputes a rejection; an admin assigns a different verifier, whose decision closes the dispute.
CREATE TABLE "milestone_disputes" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "milestone_id" uuid NOT NULL REFERENCES "milestones"("id") ON DELETE CASCADE,
  "statement" text NOT NULL,
  "opened_by" uuid NOT NULL REFERENCES "users"("id") ON DELETE RESTRICT,
  "opened_at" timestamp with time zone DEFAULT now() NOT NULL,
  "verifier_id" uuid REFERENCES "users"("id") ON DELETE RESTRICT,
  -- The verification round the assigned verifier decides alone.
  "round" integer,
  "assigned_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "assigned_at" timestamp with time zone,
  "outcome" text,
  "closed_at" timestamp with time zone,
  CONSTRAINT "milestone_disputes_outcome_check" CHECK ("outcome" IS NULL OR "outcome" IN ('approved', 'rejected'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "milestone_disputes_open_key" ON "milestone_disputes" ("milestone_id") WHERE "closed_at" IS NULL;
