-- Releases beyond Tranche: a release (the disbursements row, still one per milestone) is instructed on
-- approval, then settled by the custodian (its payment reference) or failed (a reason); an admin may
-- re-instruct a failed release (a new instruction id on the same row) or cancel it.
ALTER TABLE "disbursements" ADD COLUMN "status" text DEFAULT 'instructed' NOT NULL;
--> statement-breakpoint
ALTER TABLE "disbursements" ADD COLUMN "instruction_id" uuid DEFAULT gen_random_uuid() NOT NULL;
--> statement-breakpoint
ALTER TABLE "disbursements" ADD COLUMN "instructed_at" timestamp with time zone DEFAULT now() NOT NULL;
--> statement-breakpoint
ALTER TABLE "disbursements" ADD COLUMN "settlement_reference" text;
--> statement-breakpoint
ALTER TABLE "disbursements" ADD COLUMN "settled_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "disbursements" ADD COLUMN "failure_reason" text;
--> statement-breakpoint
ALTER TABLE "disbursements" ADD COLUMN "failed_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "disbursements" ADD COLUMN "cancellation_reason" text;
--> statement-breakpoint
ALTER TABLE "disbursements" ADD COLUMN "cancelled_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "disbursements" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;
--> statement-breakpoint
-- Releases written before this migration were instructed when their milestone was approved.
UPDATE "disbursements" SET "instructed_at" = "created_at", "updated_at" = "created_at";
--> statement-breakpoint
ALTER TABLE "disbursements" ADD CONSTRAINT "disbursements_status_check"
  CHECK ("status" IN ('instructed', 'settled', 'failed', 'cancelled'));
--> statement-breakpoint
ALTER TABLE "disbursements" ADD CONSTRAINT "disbursements_settled_check"
  CHECK ("status" <> 'settled' OR ("settlement_reference" IS NOT NULL AND "settled_at" IS NOT NULL));
--> statement-breakpoint
CREATE UNIQUE INDEX "disbursements_instruction_key" ON "disbursements" ("instruction_id");
--> statement-breakpoint
CREATE INDEX "disbursements_status_idx" ON "disbursements" ("status", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "disbursements_created_idx" ON "disbursements" ("created_at", "id");
--> statement-breakpoint
-- Scoped tokens for machine clients (custodians, integrations). Only the SHA-256 of a token is stored.
CREATE TABLE "api_tokens" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "name" text NOT NULL,
  "token_hash" text NOT NULL,
  "prefix" text NOT NULL,
  "scopes" text[] NOT NULL,
  "created_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "last_used_at" timestamp with time zone,
  "revoked_at" timestamp with time zone,
  "revoked_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  CONSTRAINT "api_tokens_scopes_check" CHECK (
    cardinality("scopes") > 0 AND "scopes" <@ ARRAY['releases:read', 'releases:write', 'projects:read']::text[]
  )
);
--> statement-breakpoint
CREATE UNIQUE INDEX "api_tokens_hash_key" ON "api_tokens" ("token_hash");
--> statement-breakpoint
CREATE INDEX "api_tokens_created_idx" ON "api_tokens" ("created_at");
