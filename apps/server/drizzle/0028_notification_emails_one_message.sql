-- A notification's email is now one outbox message of the "email" topic, written with the notification and
-- rendered when it is sent (services/email/notification-email.ts). The "email.notification" topic, which read each
-- notification and wrote its email as a second message, is gone: what was waiting on it becomes that one message.
-- One already handled (its email written, only its own mark left) is done.
UPDATE "outbox" o
SET "topic" = 'email',
    "payload" = jsonb_build_object(
      'to', u."email",
      'kind', 'notification',
      'subject', n."title",
      'notification', jsonb_build_object('title', n."title", 'message', n."message", 'category', n."category", 'link', n."link"))
FROM "notifications" n JOIN "users" u ON u."id" = n."user_id"
WHERE o."topic" = 'email.notification' AND o."status" = 'pending' AND o."payload"->'handled' IS NULL
  AND n."id" = (o."payload"->>'notificationId')::uuid;
--> statement-breakpoint
UPDATE "outbox" SET "status" = 'done', "done_at" = now(), "locked_until" = NULL, "lease_token" = NULL
WHERE "topic" = 'email.notification' AND "status" = 'pending';
