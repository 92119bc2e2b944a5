// The field app's store on the device (docs/decisions/021-offline-field-app.md): one IndexedDB database, every
// record tagged with the signed-in person's id, and everything but ids, kinds, statuses and times encrypted with the
// device key (./crypto.ts).
import { type DBSchema, type IDBPDatabase, openDB } from "idb";
import type { Sealed } from "./crypto";

export type QueueKind = "start" | "checklist" | "evidence" | "approve" | "reject";
/** What the verifier sees of each item: waiting, sending, sent, or needs their attention (refused, or conflicted). */
export type QueueStatus = "waiting" | "sending" | "sent" | "needs_attention";

export interface QueueRecord {
  /** The queue's order: items are sent by ascending `seq`, never past one that needs attention. */
  seq?: number;
  userId: string;
  milestoneId: string;
  kind: QueueKind;
  status: QueueStatus;
  /** Sent as Idempotency-Key: a retry after a lost answer is answered with the first answer, never acted on twice. */
  idempotencyKey: string;
  createdAt: string;
  updatedAt: string;
  /** The action (its body, the round and policy version the verifier saw, the milestone's title). */
  payload: Sealed;
  /** A capture's bytes, until the server has them. */
  file?: Sealed;
  /** Why the server refused it ({ code, message }), while it needs attention. */
  problem?: Sealed;
}

export interface VisitRecord {
  userId: string;
  milestoneId: string;
  savedAt: string;
  visit: Sealed;
}

export interface DocumentRecord {
  /** `${userId}:${evidenceId}` */
  id: string;
  userId: string;
  milestoneId: string;
  evidenceId: string;
  savedAt: string;
  bytes: Sealed;
}

interface FieldSchema extends DBSchema {
  /** The device key: a non-extractable AES-GCM CryptoKey, stored as the key object itself. */
  keys: { key: string; value: { id: string; key: CryptoKey } };
  /** Per person: who they are and their assignment list, for a start with no signal. */
  people: { key: string; value: { userId: string; savedAt: string; data: Sealed } };
  visits: { key: [string, string]; value: VisitRecord; indexes: { byUser: string } };
  documents: { key: string; value: DocumentRecord; indexes: { byMilestone: [string, string] } };
  queue: { key: number; value: QueueRecord; indexes: { byUser: string } };
}

export type FieldDb = IDBPDatabase<FieldSchema>;

let opening: Promise<FieldDb> | undefined;

/** The one connection of this page (opened on first use). */
export function fieldDb(): Promise<FieldDb> {
  opening ??= openDB<FieldSchema>("tranche-field", 1, {
    upgrade(db) {
      db.createObjectStore("keys", { keyPath: "id" });
      db.createObjectStore("people", { keyPath: "userId" });
      const visits = db.createObjectStore("visits", { keyPath: ["userId", "milestoneId"] });
      visits.createIndex("byUser", "userId");
      const documents = db.createObjectStore("documents", { keyPath: "id" });
      documents.createIndex("byMilestone", ["userId", "milestoneId"]);
      const queue = db.createObjectStore("queue", { keyPath: "seq", autoIncrement: true });
      queue.createIndex("byUser", "userId");
    },
    // Another tab upgrading the database: let it, this page reopens on its next use.
    blocking() {
      void opening?.then((db) => db.close());
      opening = undefined;
    },
  });
  return opening;
}

const KEY_ID = "device";

let cached: Promise<CryptoKey> | undefined;

/** The device key, created on first use (two tabs racing keep whichever was stored first). */
export function deviceKey(db: FieldDb): Promise<CryptoKey> {
  cached ??= (async () => {
    const stored = await db.get("keys", KEY_ID);
    if (stored) return stored.key;
    const key = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
    const tx = db.transaction("keys", "readwrite");
    const existing = await tx.store.get(KEY_ID);
    if (!existing) await tx.store.add({ id: KEY_ID, key });
    await tx.done;
    return existing?.key ?? key;
  })().catch((error) => {
    cached = undefined;
    throw error;
  });
  return cached;
}
