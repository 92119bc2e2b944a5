-- A push subscription lasts as long as the signed-in session that enabled it: signing out, being signed out by
-- another session, a password changed or reset, or an expiry ends the session and with it the pushes to that browser
-- (they carry the titles and messages of notifications). Before this, a phone signed out, or cut off after it was
-- lost, kept receiving them. Subscriptions kept so far belong to no session: they are dropped, and each browser that
-- still has one sends it again with its next signed-in page.
DELETE FROM "push_subscriptions";
--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD COLUMN "session_id" text NOT NULL REFERENCES "sessions"("id") ON DELETE CASCADE;
--> statement-breakpoint
CREATE INDEX "push_subscriptions_session_idx" ON "push_subscriptions" ("session_id");
