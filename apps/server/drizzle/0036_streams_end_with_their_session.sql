-- A session that ends (signed out, signed out by another of its person's sessions, a password changed or reset, an
-- expiry found) tells every process on the realtime channel, so each ends the event streams opened with it: a
-- session cut off no longer reads notifications through a stream it opened before (realtime/hub.ts).
CREATE FUNCTION sessions_ended_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('tranche_events', json_build_object('userId', OLD.user_id, 'endedSession', OLD.id)::text);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "sessions_ended" AFTER DELETE ON "sessions" FOR EACH ROW EXECUTE FUNCTION sessions_ended_notify();
