-- Workers are woken only by a message they may claim: an event no webhook endpoint subscribes to is written as done
-- (services/outbox/outbox.ts, publishEvents), and waking every worker for it would only cost each a claim.
DROP TRIGGER "outbox_notify_insert" ON "outbox";
--> statement-breakpoint
CREATE TRIGGER "outbox_notify_insert" AFTER INSERT ON "outbox" FOR EACH ROW WHEN (NEW."status" = 'pending')
  EXECUTE FUNCTION outbox_notify();
