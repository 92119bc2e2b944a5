import { sql } from "drizzle-orm";
import { type Db, type DbOrTx, queryRows, type Tx } from "../../db/client";
import { outbox } from "../../db/schema";
import type { OutboxMessage } from "./outbox";
import type { TopicConfig } from "./worker";

/** Marks a message handled, only if it was not: the statement returns its id the first time only. */
const markHandled = (messageId: string) =>
  sql`update ${outbox} set payload = payload || '{"handled":true}'::jsonb
      where id = ${messageId} and payload->'handled' is null
      returning id`;

/**
 * For handlers that write in a transaction: marks the message handled in that transaction and says whether this
 * is the first time, so a rerun after a crash (delivery is at least once) does not write twice.
 */
export async function firstRun(tx: DbOrTx, messageId: string): Promise<boolean> {
  return (await queryRows<{ id: string }>(tx, markHandled(messageId))).length > 0;
}

/** The retries of a topic whose handler writes once: 5 s, then every minute, five attempts in all. */
export const WRITE_ONCE_RETRIES = { retryDelaysMs: [5_000, 60_000], maxAttempts: 5 } as const;

/** A topic whose handler writes in one transaction, at most once per message (retried 5 s, then every minute). */
export function transactionalTopic(db: Db, write: (tx: Tx, message: OutboxMessage) => Promise<void>): TopicConfig {
  return {
    ...WRITE_ONCE_RETRIES,
    handle: (message) =>
      db.transaction(async (tx) => {
        if (await firstRun(tx, message.id)) await write(tx, message);
      }),
  };
}
