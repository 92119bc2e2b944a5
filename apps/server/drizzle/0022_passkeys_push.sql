-- Passkeys (WebAuthn, user verification required) and Web Push subscriptions.
-- A passkey is kept after it is revoked (revoked_at), so a revoked one is refused by name and the record stays.
CREATE TABLE "passkeys" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "credential_id" text NOT NULL,
  "public_key" text NOT NULL,
  "counter" bigint DEFAULT 0 NOT NULL,
  "transports" text[] DEFAULT '{}'::text[] NOT NULL,
  "device_name" text NOT NULL,
  "device_type" text NOT NULL,
  "backed_up" boolean DEFAULT false NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "last_used_at" timestamp with time zone,
  "revoked_at" timestamp with time zone,
  CONSTRAINT "passkeys_device_type_check" CHECK ("device_type" IN ('singleDevice', 'multiDevice'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "passkeys_credential_key" ON "passkeys" ("credential_id");
--> statement-breakpoint
CREATE INDEX "passkeys_user_idx" ON "passkeys" ("user_id");
--> statement-breakpoint
-- A challenge is good once (deleted as it is used) and for five minutes. Sign-in challenges have no user yet.
-- Written on every ceremony and read by no cached answer: not tracked by the read cache (ADR 018).
CREATE TABLE "webauthn_challenges" (
  "challenge" text PRIMARY KEY NOT NULL,
  "purpose" text NOT NULL,
  "user_id" uuid REFERENCES "users"("id") ON DELETE CASCADE,
  "expires_at" timestamp with time zone NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "webauthn_challenges_purpose_check" CHECK ("purpose" IN ('register', 'sign_in', 'second_factor')),
  CONSTRAINT "webauthn_challenges_user_check" CHECK (("purpose" = 'sign_in') = ("user_id" IS NULL))
);
--> statement-breakpoint
CREATE INDEX "webauthn_challenges_expires_idx" ON "webauthn_challenges" ("expires_at");
--> statement-breakpoint
-- One row per browser that enabled push (its push service endpoint is unique); moved to whoever enables it last.
CREATE TABLE "push_subscriptions" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "endpoint" text NOT NULL,
  "p256dh" text NOT NULL,
  "auth" text NOT NULL,
  "device" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "last_sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "push_subscriptions_endpoint_key" ON "push_subscriptions" ("endpoint");
--> statement-breakpoint
CREATE INDEX "push_subscriptions_user_idx" ON "push_subscriptions" ("user_id");
--> statement-breakpoint
-- The VAPID key pair every process signs pushes with: made once by the first process to start (the private half
-- sealed with the secret box), unless VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY are set.
CREATE TABLE "vapid_keys" (
  "id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
  "public_key" text NOT NULL,
  "private_key_sealed" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "vapid_keys_single_check" CHECK ("id" = 1)
);
--> statement-breakpoint
-- A milestone due soon is announced to its verifiers once per due date.
CREATE TABLE "milestone_due_soon_notices" (
  "milestone_id" uuid NOT NULL REFERENCES "milestones"("id") ON DELETE CASCADE,
  "due_date" date NOT NULL,
  "notified_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "milestone_due_soon_notices_pk" PRIMARY KEY ("milestone_id", "due_date")
);
--> statement-breakpoint
-- What the read cache notes when these change (migration 0020, ADR 018); webauthn_challenges is not tracked.
INSERT INTO "data_change_scopes" ("table_name", "scopes") VALUES
  ('passkeys', '{u:user_id}'),
  ('push_subscriptions', '{u:user_id}'),
  ('vapid_keys', '{o}'),
  ('milestone_due_soon_notices', '{m:milestone_id}');
--> statement-breakpoint
SELECT track_data_changes('passkeys');
--> statement-breakpoint
SELECT track_data_changes('push_subscriptions');
--> statement-breakpoint
SELECT track_data_changes('vapid_keys');
--> statement-breakpoint
SELECT track_data_changes('milestone_due_soon_notices');
