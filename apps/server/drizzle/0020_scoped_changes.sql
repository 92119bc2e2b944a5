-- The read cache's notes of change say WHAT changed (ADR 018), so a write invalidates only the cached answers that
-- read it: 'p:<project id>' for a project's own rows (its milestones, releases, evidence, decisions, audit events,
-- rollup…), 'u:<user id>' for a person's own rows (notifications, preferences, second factor…), 'n' when a person's
-- shown name, email, organization, picture or role changed (answers that show other people read it), 'o' for the
-- rest (only platform-wide answers read it) and '*' for everything (TRUNCATE, or a table not described here).
-- Personal answers are checked against '*', their user, their projects (and 'n' when they show people);
-- platform-wide answers against any note. A statement that changed no row notes nothing.
DROP TABLE "data_changes";
--> statement-breakpoint
CREATE TABLE "data_changes" (
  "xid" xid8 NOT NULL,
  "scope" text NOT NULL,
  "at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
  CONSTRAINT "data_changes_pk" PRIMARY KEY ("xid", "scope")
);
--> statement-breakpoint
DROP FUNCTION IF EXISTS note_data_change() CASCADE;
--> statement-breakpoint
-- What each table's rows belong to: p:<column> (a project), u:<column> (a person), m:<column> (a milestone's
-- project), r:<column> (a release's project), e:<column> (an evidence file's project), n (users: shown fields),
-- o (nothing narrower than the platform).
CREATE TABLE "data_change_scopes" (
  "table_name" text PRIMARY KEY,
  "scopes" text[] NOT NULL
);
--> statement-breakpoint
INSERT INTO "data_change_scopes" ("table_name", "scopes") VALUES
  ('users', '{u:id,n}'),
  ('mfa_totp', '{u:user_id}'),
  ('mfa_recovery_codes', '{u:user_id}'),
  ('password_resets', '{u:user_id}'),
  ('email_verifications', '{u:user_id}'),
  ('email_preferences', '{u:user_id}'),
  ('user_avatars', '{u:user_id}'),
  ('notifications', '{u:user_id}'),
  ('projects', '{p:id}'),
  ('project_members', '{p:project_id,u:user_id}'),
  ('project_rollups', '{p:project_id}'),
  ('milestones', '{p:project_id,u:verifier_id}'),
  ('disbursements', '{p:project_id}'),
  ('release_policies', '{p:project_id}'),
  ('audit_events', '{p:project_id}'),
  ('verification_decisions', '{m:milestone_id,u:user_id}'),
  ('milestone_disputes', '{m:milestone_id,u:verifier_id}'),
  ('verification_overdue_notices', '{m:milestone_id,u:verifier_id}'),
  ('verification_reports', '{m:milestone_id,u:submitted_by}'),
  ('evidence', '{m:milestone_id,u:uploaded_by}'),
  ('evidence_flags', '{e:evidence_id,u:dismissed_by}'),
  ('release_certificates', '{r:release_id}'),
  ('public_requests', '{o}'),
  ('audit_checkpoints', '{o}'),
  ('webhook_endpoints', '{o}'),
  ('invitations', '{o}');
--> statement-breakpoint
CREATE FUNCTION note_data_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO data_changes (xid, scope) VALUES (pg_current_xact_id(), '*') ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Writes, for one table, the function its statement triggers call (static SQL, so its plans are cached) and the
-- four triggers. A table with no row in data_change_scopes notes '*'. Tables that a migration adds later call it.
CREATE FUNCTION track_data_changes(target text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  specs text[];
  spec text;
  kind text;
  col text;
  op text;
  rel text;
  parts text[];
  body text := '';
BEGIN
  SELECT scopes INTO specs FROM data_change_scopes WHERE table_name = target;
  specs := coalesce(specs, '{*}');
  FOREACH op IN ARRAY ARRAY['INSERT', 'UPDATE', 'DELETE'] LOOP
    parts := '{}';
    FOREACH rel IN ARRAY CASE op WHEN 'INSERT' THEN ARRAY['new_rows'] WHEN 'DELETE' THEN ARRAY['old_rows']
                                 ELSE ARRAY['new_rows', 'old_rows'] END LOOP
      FOREACH spec IN ARRAY specs LOOP
        kind := split_part(spec, ':', 1);
        col := split_part(spec, ':', 2);
        parts := parts || CASE kind
          WHEN 'p' THEN format('SELECT ''p:'' || r.%I FROM %I r WHERE r.%I IS NOT NULL', col, rel, col)
          WHEN 'u' THEN format('SELECT ''u:'' || r.%I FROM %I r WHERE r.%I IS NOT NULL', col, rel, col)
          WHEN 'm' THEN format('SELECT ''p:'' || m.project_id FROM %I r JOIN milestones m ON m.id = r.%I', rel, col)
          WHEN 'r' THEN format('SELECT ''p:'' || d.project_id FROM %I r JOIN disbursements d ON d.id = r.%I', rel, col)
          WHEN 'e' THEN format('SELECT ''p:'' || m.project_id FROM %I r JOIN evidence e ON e.id = r.%I
                                JOIN milestones m ON m.id = e.milestone_id', rel, col)
          -- A person's shown fields: once per statement that changed them (or removed the person).
          WHEN 'n' THEN CASE
            WHEN op = 'DELETE' THEN 'SELECT ''n'' FROM (SELECT 1 FROM old_rows LIMIT 1) x'
            WHEN op = 'UPDATE' AND rel = 'new_rows' THEN
              'SELECT ''n'' FROM (SELECT 1 FROM new_rows a JOIN old_rows b ON b.id = a.id
                 WHERE (a.name, a.email, a.organization, a.avatar_url, a.role, a.expertise, a.rating,
                        a.verified_organization)
                   IS DISTINCT FROM (b.name, b.email, b.organization, b.avatar_url, b.role, b.expertise,
                                     b.rating, b.verified_organization) LIMIT 1) x'
            ELSE NULL END
          ELSE format('SELECT %L FROM (SELECT 1 FROM %I LIMIT 1) x', kind, rel)
        END;
      END LOOP;
    END LOOP;
    -- A changed row that belongs to nothing narrower (an audit event of no project, say) still counts for
    -- platform-wide answers: when nothing else was noted, 'o' is.
    body := body || format(
      $f$IF TG_OP = %L THEN
        INSERT INTO data_changes (xid, scope)
          SELECT DISTINCT pg_current_xact_id(), s FROM (%s) x(s) ON CONFLICT DO NOTHING;
        IF NOT FOUND THEN
          INSERT INTO data_changes (xid, scope) SELECT pg_current_xact_id(), 'o' FROM %I LIMIT 1
            ON CONFLICT DO NOTHING;
        END IF;
      END IF;
      $f$, op, array_to_string(parts, ' UNION '), CASE op WHEN 'DELETE' THEN 'old_rows' ELSE 'new_rows' END);
  END LOOP;
  EXECUTE format('CREATE OR REPLACE FUNCTION %I() RETURNS trigger LANGUAGE plpgsql AS $body$ BEGIN %s RETURN NULL; END; $body$',
                 'note_change_' || target, body);
  EXECUTE format('DROP TRIGGER IF EXISTS note_data_insert ON %I', target);
  EXECUTE format('DROP TRIGGER IF EXISTS note_data_update ON %I', target);
  EXECUTE format('DROP TRIGGER IF EXISTS note_data_delete ON %I', target);
  EXECUTE format('DROP TRIGGER IF EXISTS note_data_truncate ON %I', target);
  EXECUTE format('CREATE TRIGGER note_data_insert AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows
                  FOR EACH STATEMENT EXECUTE FUNCTION %I()', target, 'note_change_' || target);
  EXECUTE format('CREATE TRIGGER note_data_update AFTER UPDATE ON %I REFERENCING NEW TABLE AS new_rows
                  OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION %I()', target, 'note_change_' || target);
  EXECUTE format('CREATE TRIGGER note_data_delete AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows
                  FOR EACH STATEMENT EXECUTE FUNCTION %I()', target, 'note_change_' || target);
  EXECUTE format('CREATE TRIGGER note_data_truncate AFTER TRUNCATE ON %I
                  FOR EACH STATEMENT EXECUTE FUNCTION note_data_truncate()', target);
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
      AND tablename NOT IN ('data_changes', 'data_change_scopes', 'sessions', 'rate_limits', 'idempotency_keys',
                            'api_tokens', 'outbox', 'webhook_deliveries', 'webhook_attempts', 'email_digests',
                            'known_devices', '__drizzle_migrations')
  LOOP
    PERFORM track_data_changes(t);
  END LOOP;
END;
$$;
--> statement-breakpoint
-- A new notification's NOTIFY carries the notification itself, so each process hands it to its open streams
-- without reading it back (realtime/hub.ts). One too large for a NOTIFY (8000 bytes) carries only its seq, and
-- its streams read it.
CREATE OR REPLACE FUNCTION notifications_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  payload text := json_build_object(
    'userId', NEW.user_id, 'seq', NEW.seq,
    'notification', json_build_object(
      'id', NEW.id, 'seq', NEW.seq, 'userId', NEW.user_id, 'title', NEW.title, 'message', NEW.message,
      'category', NEW.category, 'read', NEW.read, 'link', NEW.link, 'subject', NEW.subject,
      'createdAt', NEW.created_at))::text;
BEGIN
  IF octet_length(payload) > 7900 THEN
    payload := json_build_object('userId', NEW.user_id, 'seq', NEW.seq)::text;
  END IF;
  PERFORM pg_notify('tranche_events', payload);
  RETURN NEW;
END;
$$;
--> statement-breakpoint
-- Dashboards' upcoming and overdue milestones: each project's unfinished milestones in due order (ties by creation,
-- as they are shown), never reading the verified ones.
CREATE INDEX "milestones_open_due_idx" ON "milestones" ("project_id", "due_date", "created_at") WHERE "status" <> 'verified';
--> statement-breakpoint
-- A verifier's decisions (completed counts, turnaround): read by person, never by scanning every decision.
CREATE INDEX "verification_decisions_user_idx" ON "verification_decisions" ("user_id", "kind") INCLUDE ("milestone_id", "decided_at");
