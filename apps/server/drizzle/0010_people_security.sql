-- Second factor (TOTP with recovery codes) and when each session last passed it.
ALTER TABLE "sessions" ADD COLUMN "mfa_verified_at" timestamp with time zone;
--> statement-breakpoint
CREATE TABLE "mfa_totp" (
  "user_id" uuid PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "secret_sealed" text NOT NULL,
  "enabled_at" timestamp with time zone,
  "last_used_step" bigint,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mfa_recovery_codes" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "code_hash" text NOT NULL,
  "used_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "mfa_recovery_codes_user_hash_key" ON "mfa_recovery_codes" ("user_id", "code_hash");
