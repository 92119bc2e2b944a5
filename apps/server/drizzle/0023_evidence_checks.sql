-- The background evidence checks (ADR 024): one result per evidence file — status, the checker's version, the fields
-- read from a document, and what other files are compared against (a photo's perceptual hash, a document's
-- normalised number). The flags they raise go to evidence_flags (0019), beside the capture tags'.
CREATE TABLE "evidence_checks" (
  "evidence_id" uuid PRIMARY KEY NOT NULL REFERENCES "evidence"("id") ON DELETE CASCADE,
  "status" text DEFAULT 'pending' NOT NULL,
  "checker_version" text,
  "extracted" jsonb,
  "photo_hash" text,
  "document_key" text,
  "error" text,
  "checked_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "evidence_checks_status_check" CHECK (status IN ('pending', 'done', 'failed')),
  CONSTRAINT "evidence_checks_photo_hash_check" CHECK ("photo_hash" ~ '^[0-9a-f]{16}$')
);
--> statement-breakpoint
CREATE INDEX "evidence_checks_document_key_idx" ON "evidence_checks" USING btree ("document_key");
--> statement-breakpoint
CREATE INDEX "evidence_checks_photo_hash_idx" ON "evidence_checks" USING btree ("photo_hash");
--> statement-breakpoint
-- What the read cache notes when these change (migration 0020, ADR 018): a result is its evidence's project's.
INSERT INTO "data_change_scopes" ("table_name", "scopes") VALUES
  ('evidence_checks', '{e:evidence_id}');
--> statement-breakpoint
SELECT track_data_changes('evidence_checks');
