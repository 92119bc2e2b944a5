import { randomUUID } from "node:crypto";
import type { DbOrTx } from "../../db/client";
import { outbox } from "../../db/schema";

export interface OutboxMessage {
  id: string;
  topic: string;
  // biome-ignore lint/suspicious/noExplicitAny: each topic's handler knows its own payload
  payload: any;
  attempts: number;
  createdAt: Date;
}

/** Writes a message in the caller's transaction: a rolled-back transaction sends nothing. Returns its id. */
export async function enqueue(
  tx: DbOrTx,
  topic: string,
  payload: unknown,
  options: { runAt?: Date } = {},
): Promise<string> {
  const [row] = await tx
    .insert(outbox)
    .values({ topic, payload, runAt: options.runAt ?? new Date() })
    .returning({ id: outbox.id });
  return row.id;
}

/** Writes several messages of one topic in one statement, in the caller's transaction. */
export async function enqueueMany(tx: DbOrTx, topic: string, payloads: unknown[]): Promise<void> {
  if (payloads.length === 0) return;
  const runAt = new Date();
  await tx.insert(outbox).values(payloads.map((payload) => ({ topic, payload, runAt })));
}

/** What integrations receive: `{ id, type, createdAt, data }`, the id stable across every retry. */
export interface DomainEvent {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

/** Publishes a domain event for integrations (topic "event"), in the caller's transaction. Returns its id. */
export async function publishEvent(tx: DbOrTx, type: string, data: Record<string, unknown>): Promise<string> {
  const event: DomainEvent = { id: randomUUID(), type, createdAt: new Date().toISOString(), data };
  await enqueue(tx, "event", event);
  return event.id;
}
