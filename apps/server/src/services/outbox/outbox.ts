import { randomUUID } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { outbox, webhookEndpoints } from "../../db/schema";

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

/** Domain events of these types and data, each with a new id, stamped now. */
export function domainEvents(events: { type: string; data: Record<string, unknown> }[]): DomainEvent[] {
  const createdAt = new Date().toISOString();
  return events.map(({ type, data }) => ({ id: randomUUID(), type, createdAt, data }));
}

/**
 * The statement that keeps domain events in the outbox (one at least). One that no enabled webhook endpoint
 * subscribes to is kept as done, so no worker claims it only to find nobody to send it to
 * (docs/decisions/031-less-work-per-approval.md).
 */
export function eventsInsert(events: DomainEvent[]): SQL {
  const rows = sql.join(
    events.map((event) => sql`(${event.type}::text, ${JSON.stringify(event)}::jsonb)`),
    sql`, `,
  );
  return sql`insert into ${outbox} (topic, payload, status, done_at)
    select 'event', e.payload, case when s.subscribed then 'pending' else 'done' end,
           case when s.subscribed then null else now() end
    from (values ${rows}) as e(type, payload)
    cross join lateral (
      select exists (select 1 from ${webhookEndpoints} w where w.enabled and e.type = any(w.events)) as subscribed) s`;
}

/** Publishes several domain events in one statement, in the caller's transaction. Returns their ids. */
export async function publishEvents(
  tx: DbOrTx,
  events: { type: string; data: Record<string, unknown> }[],
): Promise<string[]> {
  if (events.length === 0) return [];
  const written = domainEvents(events);
  await tx.execute(eventsInsert(written));
  return written.map((event) => event.id);
}
