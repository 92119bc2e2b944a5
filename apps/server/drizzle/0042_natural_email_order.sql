-- The admin's user list sorted by email follows the names' natural order too ("user2" before "user10", "Zed" beside
-- "zed"), in the ICU collation of migration 0041; this index, in that collation, answers its keyset pages.
CREATE INDEX "users_email_id_idx" ON "users" ("email" COLLATE "natural_order", "id");
