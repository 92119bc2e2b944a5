-- Evidence that tells where and when it was captured, and the flags raised about it (capture tags at upload, the
-- background evidence checks). One flag per code per file; a dismissal keeps the flag with who, when and why.
ALTER TABLE "evidence" ADD COLUMN "capture_latitude" double precision;
--> statement-breakpoint
ALTER TABLE "evidence" ADD COLUMN "capture_longitude" double precision;
--> statement-breakpoint
ALTER TABLE "evidence" ADD COLUMN "capture_accuracy_m" double precision;
--> statement-breakpoint
ALTER TABLE "evidence" ADD COLUMN "captured_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "evidence" ADD COLUMN "distance_to_site_m" double precision;
--> statement-breakpoint
ALTER TABLE "evidence" ADD CONSTRAINT "evidence_capture_check" CHECK (("capture_latitude" IS NULL) = ("capture_longitude" IS NULL) AND ("capture_latitude" IS NULL) = ("captured_at" IS NULL));
--> statement-breakpoint
CREATE TABLE "evidence_flags" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "evidence_id" uuid NOT NULL REFERENCES "evidence"("id") ON DELETE CASCADE,
  "code" text NOT NULL,
  "severity" text NOT NULL,
  "message" text NOT NULL,
  "details" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "source" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "dismissed_at" timestamp with time zone,
  "dismissed_by" uuid REFERENCES "users"("id") ON DELETE RESTRICT,
  "dismiss_reason" text,
  CONSTRAINT "evidence_flags_code_check" CHECK (code IN ('reused_photo', 'duplicate_document_number', 'total_mismatch', 'outside_window', 'far_from_site', 'edited_metadata', 'stripped_metadata', 'pdf_incremental_update')),
  CONSTRAINT "evidence_flags_severity_check" CHECK (severity IN ('low', 'medium', 'high')),
  CONSTRAINT "evidence_flags_dismissal_check" CHECK (("dismissed_at" IS NULL) = ("dismissed_by" IS NULL) AND ("dismissed_at" IS NULL) = ("dismiss_reason" IS NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "evidence_flags_evidence_code_idx" ON "evidence_flags" USING btree ("evidence_id", "code");
