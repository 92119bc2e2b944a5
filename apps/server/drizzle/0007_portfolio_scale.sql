-- Portfolio scale (issue 11): per-project rollups read by dashboards and lists, trigram search, keyset indexes.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
-- What a project's rollup must hold, recomputed from its milestones, its release rows (their own amounts and
-- statuses, never the milestones' amounts) and its audit events. refreshProjectRollup copies one project's row
-- of this view into project_rollups; `rollups verify` compares the two whole.
CREATE VIEW "project_rollup_expected" AS
SELECT
  p.id AS project_id,
  p.currency,
  coalesce(r.released, 0)::numeric(20, 2) AS released,
  coalesce(r.settled, 0)::numeric(20, 2) AS settled,
  coalesce(m.pending_capital, 0)::numeric(20, 2) AS pending_capital,
  coalesce(m.total, 0)::int AS milestones_total,
  coalesce(m.pending, 0)::int AS milestones_pending,
  coalesce(m.in_verification, 0)::int AS milestones_in_verification,
  coalesce(m.verified, 0)::int AS milestones_verified,
  coalesce(m.rejected, 0)::int AS milestones_rejected,
  coalesce(m.delayed, 0)::int AS milestones_delayed,
  m.next_due_date,
  greatest(p.created_at, a.last_at) AS last_activity_at
FROM projects p
LEFT JOIN LATERAL (
  SELECT sum(d.amount) FILTER (WHERE d.status IN ('instructed', 'settled')) AS released,
         sum(d.amount) FILTER (WHERE d.status = 'settled') AS settled
  FROM disbursements d WHERE d.project_id = p.id AND d.currency = p.currency
) r ON true
LEFT JOIN LATERAL (
  SELECT count(*) AS total,
         count(*) FILTER (WHERE ms.status = 'pending') AS pending,
         count(*) FILTER (WHERE ms.status = 'in_verification') AS in_verification,
         count(*) FILTER (WHERE ms.status = 'verified') AS verified,
         count(*) FILTER (WHERE ms.status = 'rejected') AS rejected,
         count(*) FILTER (WHERE ms.status = 'delayed') AS delayed,
         sum(ms.capital_amount) FILTER (WHERE ms.status IN ('pending', 'in_verification')) AS pending_capital,
         min(ms.due_date) FILTER (WHERE ms.status <> 'verified') AS next_due_date
  FROM milestones ms WHERE ms.project_id = p.id
) m ON true
LEFT JOIN LATERAL (
  SELECT max(ae.created_at) AS last_at FROM audit_events ae WHERE ae.project_id = p.id
) a ON true;
--> statement-breakpoint
CREATE TABLE "project_rollups" (
  "project_id" uuid PRIMARY KEY NOT NULL REFERENCES "projects"("id") ON DELETE CASCADE,
  "currency" text NOT NULL,
  "released" numeric(20, 2) NOT NULL,
  "settled" numeric(20, 2) NOT NULL,
  "pending_capital" numeric(20, 2) NOT NULL,
  "milestones_total" integer NOT NULL,
  "milestones_pending" integer NOT NULL,
  "milestones_in_verification" integer NOT NULL,
  "milestones_verified" integer NOT NULL,
  "milestones_rejected" integer NOT NULL,
  "milestones_delayed" integer NOT NULL,
  "next_due_date" date,
  "last_activity_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
INSERT INTO "project_rollups" SELECT * FROM "project_rollup_expected";
--> statement-breakpoint
CREATE INDEX "project_rollups_next_due_idx" ON "project_rollups" ("next_due_date", "project_id");
--> statement-breakpoint
CREATE INDEX "project_rollups_activity_idx" ON "project_rollups" ("last_activity_at", "project_id");
--> statement-breakpoint
CREATE INDEX "projects_search_trgm_idx" ON "projects" USING gin ("name" gin_trgm_ops, "location" gin_trgm_ops, "description" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "milestones_title_trgm_idx" ON "milestones" USING gin ("title" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "users_search_trgm_idx" ON "users" USING gin ("name" gin_trgm_ops, "email" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "projects_created_id_idx" ON "projects" ("created_at", "id");
--> statement-breakpoint
CREATE INDEX "projects_name_id_idx" ON "projects" ("name", "id");
--> statement-breakpoint
CREATE INDEX "milestones_due_keyset_idx" ON "milestones" ("due_date", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "users_name_id_idx" ON "users" ("name", "id");
--> statement-breakpoint
CREATE INDEX "project_members_project_role_idx" ON "project_members" ("project_id", "role");
