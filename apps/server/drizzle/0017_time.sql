-- The outbox lease's token: a claim sets a new one, and a worker settles a message only while the token is still
-- its own, so a handler that outlived its lease cannot mark done (or retry) a message another process now holds.
ALTER TABLE "outbox" ADD COLUMN "lease_token" uuid;
