-- One round trip where an audited write used two: the audit record's lock (services/audit/lock.ts, AUDIT_LOCK,
-- passed as lock_key) and then the project's rollup recomputed from project_rollup_expected. Each statement of a
-- volatile PL/pgSQL function takes a new snapshot, so the recomputation sees every transaction that committed before
-- the lock was granted, as it did when it was a statement of its own (docs/decisions/029 and 031). The columns are
-- those of services/projects/rollup.ts (ROLLUP_COLUMNS); a test holds the two lists equal.
CREATE FUNCTION refresh_project_rollup(p uuid, lock_key bigint) RETURNS void LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(lock_key);
  INSERT INTO project_rollups (project_id, currency, released, settled, pending_capital, milestones_total,
      milestones_pending, milestones_in_verification, milestones_verified, milestones_rejected, milestones_delayed,
      next_due_date, last_activity_at, verifiers, next_open_due_date)
    SELECT project_id, currency, released, settled, pending_capital, milestones_total, milestones_pending,
      milestones_in_verification, milestones_verified, milestones_rejected, milestones_delayed, next_due_date,
      last_activity_at, verifiers, next_open_due_date
    FROM project_rollup_expected WHERE project_id = p
  ON CONFLICT (project_id) DO UPDATE SET (currency, released, settled, pending_capital, milestones_total,
      milestones_pending, milestones_in_verification, milestones_verified, milestones_rejected, milestones_delayed,
      next_due_date, last_activity_at, verifiers, next_open_due_date)
    = (excluded.currency, excluded.released, excluded.settled, excluded.pending_capital, excluded.milestones_total,
      excluded.milestones_pending, excluded.milestones_in_verification, excluded.milestones_verified,
      excluded.milestones_rejected, excluded.milestones_delayed, excluded.next_due_date, excluded.last_activity_at,
      excluded.verifiers, excluded.next_open_due_date);
END;
$$;
