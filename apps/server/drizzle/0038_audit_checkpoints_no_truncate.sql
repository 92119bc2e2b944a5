-- Signed checkpoints are as append-only as the events they sign: their table refused UPDATE and DELETE row by row
-- (0002) but not TRUNCATE, which fires no row trigger, so the application's own connection could empty it in one
-- statement. It refuses that now, as audit_events does.
CREATE TRIGGER audit_checkpoints_no_truncate BEFORE TRUNCATE ON audit_checkpoints
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only();
