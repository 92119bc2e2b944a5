-- Names sort the way people read them: "Project 2" before "Project 10", and "alpha" beside "Alpha" rather than after
-- every capital (the database's own collation is C, which compares bytes). An ICU collation with numeric ordering
-- does that on PostgreSQL and on the embedded PGlite alike. Its locale is spelt the ICU way ('und@colNumeric=yes'):
-- PGlite's ICU ignores the BCP 47 spelling 'und-u-kn-true' (it stays in byte-like order), while PostgreSQL takes
-- either (16 and later store it as 'und-u-kn'). The collation is deterministic, so equal names still differ by
-- their bytes and the id keeps breaking ties in a keyset page.
CREATE COLLATION "natural_order" (provider = icu, locale = 'und@colNumeric=yes');
--> statement-breakpoint
-- The name sorts' keyset indexes, in that collation, so a page is still an index range scan.
DROP INDEX "users_name_id_idx";
--> statement-breakpoint
CREATE INDEX "users_name_id_idx" ON "users" ("name" COLLATE "natural_order", "id");
--> statement-breakpoint
DROP INDEX "projects_name_id_idx";
--> statement-breakpoint
CREATE INDEX "projects_name_id_idx" ON "projects" ("name" COLLATE "natural_order", "id");
