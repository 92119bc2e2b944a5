-- A release certificate's facts, fixed when it is first issued: every later download and every check at /verify
-- compares against this record. Rows are never changed or removed.
CREATE TABLE "release_certificates" (
  "release_id" uuid PRIMARY KEY NOT NULL REFERENCES "disbursements"("id") ON DELETE RESTRICT,
  "facts" jsonb NOT NULL,
  "fingerprint" text NOT NULL,
  "issued_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "release_certificates_fingerprint_check" CHECK ("fingerprint" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only (% refused)', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER release_certificates_no_update_delete BEFORE UPDATE OR DELETE ON release_certificates
  FOR EACH ROW EXECUTE FUNCTION refuse_change();
