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
  const [id] = await publishEvents(tx, [{ type, data }]);
  return id;
}

/** Publishes several domain events in one statement, in the caller's transaction. Returns their ids. */
export async function publishEvents(
  tx: DbOrTx,
  events: { type: string; data: Record<string, unknown> }[],
): Promise<string[]> {
  const createdAt = new Date().toISOString();
  const written: DomainEvent[] = events.map(({ type, data }) => ({ id: randomUUID(), type, createdAt, data }));
  await enqueueMany(tx, "event", written);
  return written.map((event) => event.id);
}
