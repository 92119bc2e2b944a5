-- Invitations: an admin asks a person by email to join with a role. Only the SHA-256 of the link's token is
-- stored; a link works once (accepted_at) and until expires_at (72 h), unless revoked or replaced by a resend.
CREATE TABLE "invitations" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "email" text NOT NULL,
  "role" text NOT NULL,
  "organization" text,
  "project_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
  "token_hash" text NOT NULL,
  "invited_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "sent_at" timestamp with time zone DEFAULT now() NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  "accepted_at" timestamp with time zone,
  "accepted_user_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "revoked_at" timestamp with time zone,
  CONSTRAINT "invitations_role_check" CHECK ("role" in ('investor', 'project_owner', 'verifier', 'admin'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_token_key" ON "invitations" ("token_hash");
--> statement-breakpoint
-- At most one open invitation per address.
CREATE UNIQUE INDEX "invitations_open_email_key" ON "invitations" ("email")
  WHERE "accepted_at" IS NULL AND "revoked_at" IS NULL;
--> statement-breakpoint
-- Password reset links: single use, 30 minutes; only the token's SHA-256 is stored.
CREATE TABLE "password_resets" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "token_hash" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  "used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "password_resets_token_key" ON "password_resets" ("token_hash");
--> statement-breakpoint
CREATE INDEX "password_resets_user_idx" ON "password_resets" ("user_id");
--> statement-breakpoint
-- How a person wants email about each category of notification; no row means the category's default.
CREATE TABLE "email_preferences" (
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "category" text NOT NULL,
  "mode" text NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "email_preferences_pk" PRIMARY KEY ("user_id", "category"),
  CONSTRAINT "email_preferences_category_check" CHECK ("category" in ('verification', 'releases', 'projects', 'account')),
  CONSTRAINT "email_preferences_mode_check" CHECK ("mode" in ('instant', 'digest', 'off'))
);
--> statement-breakpoint
-- The last daily digest each person was sent: notifications after through_seq go into the next one.
CREATE TABLE "email_digests" (
  "user_id" uuid PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "through_seq" bigint NOT NULL,
  "sent_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- A person's picture, served by Tranche itself (the content security policy allows no other image hosts).
CREATE TABLE "user_avatars" (
  "user_id" uuid PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "content_type" text NOT NULL,
  "data" text NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
