// Idempotency-Key: a client that may send a request twice (a retry after a lost answer, the field app's queue
// replayed after a reconnect) names it with a key; the first answer is stored with the action's own writes, in its
// transaction, and a request with the same key gets that answer again instead of acting twice. Keys are scoped per
// person and remembered in the database, so every server process answers a replay alike.
import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Tx } from "../db/client";
import { idempotencyKeys } from "../db/schema";
import { conflict } from "../errors";
import { canonicalJson } from "./audit/chain";

export interface Replay<T> {
  status: number;
  body: T;
}

const REUSED = "This Idempotency-Key was already used for a different request.";

/**
 * What a key is remembered for: the action on its milestone and a digest of what was asked (the body, without the
 * key). A retry sends the same request and gets the first answer; the same key sent with another body (a share of
 * 50 where the first approved in full) is a different request, refused with 409 rather than answered with the
 * first request's answer.
 */
export function requestScope(action: string, milestoneId: string, input: Record<string, unknown>): string {
  const { idempotencyKey: _key, ...asked } = input;
  const digest = createHash("sha256").update(canonicalJson(asked)).digest("base64url");
  return `${action}:${milestoneId}#${digest}`;
}

/**
 * The stored answer to this person's key, or undefined when the key is new. Read after the row lock the action
 * takes, so a concurrent request with the same key sees the first one's committed answer. A key used for another
 * action or milestone (`scope`) is refused with 409.
 */
export async function storedAnswer<T>(
  tx: Tx,
  userId: string,
  key: string | undefined,
  scope: string,
): Promise<Replay<T> | undefined> {
  if (!key) return undefined;
  const [stored] = await tx
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
  if (!stored) return undefined;
  // A key kept before requests were digested names only the action and milestone: a retry of it still replays.
  const legacy = !stored.scope.includes("#") && stored.scope === scope.split("#")[0];
  if (stored.scope !== scope && !legacy) throw conflict(REUSED);
  return { status: stored.status, body: stored.body as T };
}

/** Keeps the answer under the key, in the action's transaction; the same key racing elsewhere rolls this back. */
export async function rememberAnswer(
  tx: Tx,
  userId: string,
  key: string | undefined,
  scope: string,
  answer: Replay<unknown>,
): Promise<void> {
  if (!key) return;
  const [saved] = await tx
    .insert(idempotencyKeys)
    .values({ userId, key, scope, status: answer.status, body: answer.body })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (!saved) throw conflict(REUSED);
}
