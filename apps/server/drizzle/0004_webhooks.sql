-- Outbound webhooks: endpoints admins register, one delivery per event per endpoint (its id is the stable
-- `webhook-id`), and every attempt to deliver it.
CREATE TABLE "webhook_endpoints" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "url" text NOT NULL,
  "description" text,
  "events" text[] NOT NULL,
  "enabled" boolean DEFAULT true NOT NULL,
  -- AES-256-GCM with WEBHOOK_SECRETS_KEY: a database dump alone cannot forge a signature.
  "secret_enc" text NOT NULL,
  "previous_secret_enc" text,
  "previous_secret_expires_at" timestamp with time zone,
  "disabled_reason" text,
  "created_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "endpoint_id" uuid NOT NULL REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE,
  "event_id" text NOT NULL,
  "event_type" text NOT NULL,
  "payload" jsonb NOT NULL,
  "status" text DEFAULT 'pending' NOT NULL,
  "outbox_id" uuid,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "delivered_at" timestamp with time zone,
  CONSTRAINT "webhook_deliveries_status_check" CHECK ("status" IN ('pending', 'delivered', 'failed'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_endpoint_event_key" ON "webhook_deliveries" ("endpoint_id", "event_id");
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_created_idx" ON "webhook_deliveries" ("endpoint_id", "created_at");
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "delivery_id" uuid NOT NULL REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE,
  "at" timestamp with time zone NOT NULL,
  "status_code" integer,
  "duration_ms" integer NOT NULL,
  "response" text NOT NULL,
  "error" text
);
--> statement-breakpoint
CREATE INDEX "webhook_attempts_delivery_idx" ON "webhook_attempts" ("delivery_id", "id");
