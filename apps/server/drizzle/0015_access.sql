-- Known devices: a browser that has signed in to an account before, recognised by a long-lived random cookie of
-- which only the SHA-256 is kept. A known device is not stopped by the account-wide ceiling of wrong passwords, and
-- its own "forgot password" requests are not spent by requests from elsewhere (ADR 014).
CREATE TABLE "known_devices" (
  "device_hash" text NOT NULL,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "known_devices_pk" PRIMARY KEY ("device_hash", "user_id")
);
--> statement-breakpoint
CREATE INDEX "known_devices_user_idx" ON "known_devices" ("user_id");
