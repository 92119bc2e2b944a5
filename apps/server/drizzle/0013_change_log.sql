-- Which transactions changed what the read cache serves (services/read-cache.ts): every statement that writes one
-- of these tables notes its transaction id once, in the same transaction, so the note commits or rolls back with
-- the change. A cached answer stays good while no noted transaction is invisible to the snapshot it was read at.
-- Tables that change on every request and that no cached answer reads (sessions, rate limits, the outbox and its
-- deliveries, idempotency keys, API tokens' last use, email digests) are left out: READ_CACHE_UNTRACKED_TABLES.
CREATE TABLE "data_changes" (
  "xid" xid8 PRIMARY KEY,
  "at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION note_data_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO data_changes (xid) VALUES (pg_current_xact_id()) ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DO $$
DECLARE
  t text;
BEGIN
  FOR t IN
    SELECT tablename FROM pg_tables
    WHERE schemaname = 'public'
      AND tablename NOT IN ('data_changes', 'sessions', 'rate_limits', 'idempotency_keys', 'api_tokens', 'outbox',
                            'webhook_deliveries', 'webhook_attempts', 'email_digests', '__drizzle_migrations')
  LOOP
    EXECUTE format(
      'CREATE TRIGGER note_data_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I
         FOR EACH STATEMENT EXECUTE FUNCTION note_data_change()', t);
  END LOOP;
END;
$$;
