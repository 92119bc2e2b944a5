-- The outbox: everything that must leave Tranche (webhooks, email) is written here in the transaction that
-- caused it, then delivered at least once by workers that every server process shares.
CREATE TABLE "outbox" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "topic" text NOT NULL,
  "payload" jsonb NOT NULL,
  "status" text DEFAULT 'pending' NOT NULL,
  "attempts" integer DEFAULT 0 NOT NULL,
  "run_at" timestamp with time zone DEFAULT now() NOT NULL,
  "locked_until" timestamp with time zone,
  "last_error" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "done_at" timestamp with time zone,
  CONSTRAINT "outbox_status_check" CHECK ("status" IN ('pending', 'done', 'dead'))
);
--> statement-breakpoint
CREATE INDEX "outbox_due_idx" ON "outbox" ("run_at") WHERE "status" = 'pending';
--> statement-breakpoint
CREATE INDEX "outbox_topic_idx" ON "outbox" ("topic", "created_at");
--> statement-breakpoint
-- Wakes every worker when a message commits (NOTIFY is delivered on commit, never for a rollback).
CREATE OR REPLACE FUNCTION outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('tranche_outbox', NEW.topic);
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER outbox_notify_insert AFTER INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION outbox_notify();
--> statement-breakpoint
-- Signed audit checkpoints: the chain head signed with a key kept outside the database.
CREATE TABLE "audit_checkpoints" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "last_event_id" bigint NOT NULL,
  "head_hash" text NOT NULL,
  "event_count" bigint NOT NULL,
  "key_id" text NOT NULL,
  "signature" text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "audit_checkpoints_event_key" ON "audit_checkpoints" ("last_event_id");
--> statement-breakpoint
CREATE TRIGGER audit_checkpoints_no_update_delete BEFORE UPDATE OR DELETE ON audit_checkpoints
  FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
