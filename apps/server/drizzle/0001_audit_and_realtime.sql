-- The audit record is append-only: the table refuses UPDATE and DELETE (and TRUNCATE).
CREATE OR REPLACE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER audit_events_no_update_delete BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only();
--> statement-breakpoint
-- Each new notification wakes every server process LISTENing on 'tranche_events' (delivered on commit).
CREATE OR REPLACE FUNCTION notifications_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('tranche_events', json_build_object('userId', NEW.user_id, 'seq', NEW.seq)::text);
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER notifications_notify_insert AFTER INSERT ON notifications
  FOR EACH ROW EXECUTE FUNCTION notifications_notify();
