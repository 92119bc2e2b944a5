-- Two things a verifier was misled by. A file reused byte for byte (an invoice, a video, an archive) from another
-- milestone is now flagged `reused_file`, for every file type; and a file's capture tags now say whose device it
-- was: the uploader's role on the project at upload ('verifier' or 'owner'), kept with the file because roles and
-- ownership change later. Files uploaded before this are told apart by their uploader's account role (only an
-- owner of the project or one of its verifiers can upload); anything else reads as the owner's, the cautious side:
-- an owner's self-declared position must never pass for a verifier's on-site check.
ALTER TABLE "evidence_flags" DROP CONSTRAINT "evidence_flags_code_check";
--> statement-breakpoint
ALTER TABLE "evidence_flags" ADD CONSTRAINT "evidence_flags_code_check" CHECK (code IN ('reused_photo', 'reused_file', 'duplicate_document_number', 'total_mismatch', 'outside_window', 'far_from_site', 'edited_metadata', 'stripped_metadata', 'pdf_incremental_update'));
--> statement-breakpoint
ALTER TABLE "evidence" ADD COLUMN "uploaded_as" text DEFAULT 'owner' NOT NULL CONSTRAINT "evidence_uploaded_as_check" CHECK ("uploaded_as" IN ('verifier', 'owner'));
--> statement-breakpoint
UPDATE "evidence" e SET "uploaded_as" = 'verifier' FROM "users" u WHERE u.id = e.uploaded_by AND u.role = 'verifier';
