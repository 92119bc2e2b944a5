-- The outbox worker claims the next due messages of each topic from this index (services/outbox/worker.ts): a few
-- entries per topic, in the order they became due. It used to sort every due message by priority first: under an
-- approval burst the emails waiting behind release instructions were all read on every claim (about 550 rows a
-- claim, 1.3 ms, 3.7 ms of the database's time per approval). Replaces outbox_due_idx, whose lookups (the backlog's
-- size and age for /metrics) this index serves too.
CREATE INDEX "outbox_pending_topic_idx" ON "outbox" USING btree ("topic", "run_at") WHERE "status" = 'pending';
--> statement-breakpoint
DROP INDEX "outbox_due_idx";
