// The ordered queue of what the verifier did in the field: each action waits on the device (encrypted) until it is
// sent, in order, with its own Idempotency-Key. Every change is announced to this page and the app's other tabs.
import type { CaptureInput, Checklist, ChecklistNotes } from "@tranche/domain";
import { open, openBytes, seal, sealBytes } from "./crypto";
import { deviceKey, fieldDb, type QueueKind, type QueueRecord, type QueueStatus } from "./db";

export type { QueueKind, QueueStatus };

export const QUEUE_STATUS_LABELS: Record<QueueStatus, string> = {
  waiting: "Waiting",
  sending: "Sending",
  sent: "Sent",
  needs_attention: "Needs attention",
};

/** What the verifier saw when they acted: sent with the action, so a milestone that moved on refuses it. */
interface Seen {
  /** The milestone's title, for the queue's list. */
  title: string;
  round: number;
}

export type QueueAction =
  | ({ kind: "start" } & Seen)
  | ({ kind: "checklist"; checklist: Checklist; notes: ChecklistNotes } & Seen)
  | ({ kind: "evidence"; name: string; type: string; size: number; capture: CaptureInput | null } & Seen)
  | ({ kind: "approve"; comments?: string; share?: number } & Seen & DecisionSeen)
  | ({ kind: "reject"; comments: string } & Seen & DecisionSeen);

/** What a decision was also made on: the release policy, and the evidence (a decision queued before 037 has none). */
interface DecisionSeen {
  policyVersion: number;
  /** The milestone's evidence version once this device's own files queued before the decision are in. */
  evidenceVersion?: number;
  /** The amount open as the visit showed it (an approval queued before it was sent has none). */
  openAmount?: number;
}

export interface QueueProblem {
  code: string;
  message: string;
}

/**
 * A refusal because the milestone is no longer as the verifier saw it: it left the round (`stale_round`), or it was
 * decided or moved on within it meanwhile, by someone else or on another device (409 `conflict`: "Milestone is
 * rejected; it cannot be started"). Sending it again as it was cannot succeed: the verifier looks again.
 */
export const isConflict = (problem: QueueProblem | null | undefined): boolean =>
  problem?.code === "stale_round" || problem?.code === "conflict";

export interface QueueItem {
  seq: number;
  milestoneId: string;
  kind: QueueKind;
  status: QueueStatus;
  idempotencyKey: string;
  createdAt: string;
  updatedAt: string;
  action: QueueAction;
  problem: QueueProblem | null;
}

// ---- change announcements: this page (an event target) and the other tabs (a broadcast channel)
const local = new EventTarget();
const channel = typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel("tranche-field-queue");
channel?.addEventListener("message", () => local.dispatchEvent(new Event("change")));

function announce() {
  local.dispatchEvent(new Event("change"));
  channel?.postMessage("change");
}

/** Calls `listener` after every change of the queue, in this tab or another; returns the unsubscribe. */
export function onQueueChange(listener: () => void): () => void {
  local.addEventListener("change", listener);
  return () => local.removeEventListener("change", listener);
}

async function keyed() {
  const db = await fieldDb();
  return { db, key: await deviceKey(db) };
}

async function toItem(key: CryptoKey, record: QueueRecord): Promise<QueueItem> {
  return {
    seq: record.seq as number,
    milestoneId: record.milestoneId,
    kind: record.kind,
    status: record.status,
    idempotencyKey: record.idempotencyKey,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    action: await open<QueueAction>(key, record.payload),
    problem: record.problem ? await open<QueueProblem>(key, record.problem) : null,
  };
}

/** This person's queue, in the order it is sent. */
export async function listQueue(userId: string): Promise<QueueItem[]> {
  const { db, key } = await keyed();
  const records = await db.getAllFromIndex("queue", "byUser", userId);
  records.sort((a, b) => (a.seq as number) - (b.seq as number));
  return Promise.all(records.map((record) => toItem(key, record)));
}

/**
 * Adds an action at the end of the queue (a capture with its bytes). A checklist waiting to be sent for the same
 * milestone is brought up to date instead of queued twice.
 */
export async function enqueue(
  userId: string,
  milestoneId: string,
  action: QueueAction,
  file?: ArrayBuffer,
): Promise<void> {
  const { db, key } = await keyed();
  const now = new Date().toISOString();
  const payload = await seal(key, action);
  const sealedFile = file ? await sealBytes(key, file) : undefined;
  const tx = db.transaction("queue", "readwrite");
  const waiting =
    action.kind === "checklist"
      ? (await tx.store.index("byUser").getAll(userId)).find(
          (r) => r.milestoneId === milestoneId && r.kind === "checklist" && r.status === "waiting",
        )
      : undefined;
  if (waiting) {
    await tx.store.put({ ...waiting, payload, updatedAt: now });
  } else {
    await tx.store.add({
      userId,
      milestoneId,
      kind: action.kind,
      status: "waiting",
      idempotencyKey: crypto.randomUUID(),
      createdAt: now,
      updatedAt: now,
      payload,
      ...(sealedFile ? { file: sealedFile } : {}),
    });
  }
  await tx.done;
  announce();
}

/** A capture's bytes, while it waits. */
export async function queuedFile(seq: number): Promise<ArrayBuffer | null> {
  const { db, key } = await keyed();
  const record = await db.get("queue", seq);
  return record?.file ? openBytes(key, record.file) : null;
}

/** Moves an item to `status`; a sent capture drops its bytes (the server has them). */
export async function setStatus(seq: number, status: QueueStatus, problem?: QueueProblem): Promise<void> {
  const { db, key } = await keyed();
  const sealedProblem = problem ? await seal(key, problem) : undefined;
  const tx = db.transaction("queue", "readwrite");
  const record = await tx.store.get(seq);
  if (record) {
    const { problem: _, file, ...rest } = record;
    await tx.store.put({
      ...rest,
      status,
      updatedAt: new Date().toISOString(),
      ...(status === "sent" || !file ? {} : { file }),
      ...(sealedProblem ? { problem: sealedProblem } : {}),
    });
  }
  await tx.done;
  announce();
}

/**
 * Sends an item that needs attention again: as it was (after passing the second factor, say), or against the round
 * and policy version the verifier has now looked at (`seen`). A new Idempotency-Key: it is a new request.
 */
export async function sendAgain(seq: number, seen?: { round: number; policyVersion?: number }): Promise<void> {
  const { db, key } = await keyed();
  const record = await db.get("queue", seq);
  if (!record) return;
  const action = await open<QueueAction>(key, record.payload);
  const updated = seen ? { ...action, ...seen } : action;
  const payload = await seal(key, updated);
  const { problem: _, ...rest } = record;
  await db.put("queue", {
    ...rest,
    payload,
    status: "waiting",
    idempotencyKey: crypto.randomUUID(),
    updatedAt: new Date().toISOString(),
  });
  announce();
}

/**
 * Removes an item the verifier decided not to send. A decision queued after an unsent capture of the same milestone
 * was made with that file counted in its evidence version (ADR 037): without it the decision no longer stands for
 * what the server will hold, and a file anyone else adds meanwhile would make the versions match again, so such a
 * decision is held for the verifier to decide again instead of being sent.
 */
export async function discard(seq: number): Promise<void> {
  const { db, key } = await keyed();
  const record = await db.get("queue", seq);
  if (!record) return;
  const lostCapture = record.kind === "evidence" && record.status !== "sent";
  const action = lostCapture ? await open<QueueAction>(key, record.payload) : undefined;
  const name = action?.kind === "evidence" ? action.name : "A capture";
  const problem = lostCapture
    ? await seal(key, {
        code: "stale_round",
        message: `${name} was discarded, and this decision was made with it. Look at the evidence again and decide again.`,
      } satisfies QueueProblem)
    : undefined;
  const tx = db.transaction("queue", "readwrite");
  await tx.store.delete(seq);
  if (problem) {
    const now = new Date().toISOString();
    for (const later of await tx.store.index("byUser").getAll(record.userId)) {
      const decision = later.kind === "approve" || later.kind === "reject";
      const after = (later.seq as number) > seq && later.milestoneId === record.milestoneId;
      if (decision && after && later.status !== "sent") {
        await tx.store.put({ ...later, status: "needs_attention", problem, updatedAt: now });
      }
    }
  }
  await tx.done;
  announce();
}

/** Removes what was sent (the list keeps only what still matters). */
export async function clearSent(userId: string): Promise<void> {
  const db = await fieldDb();
  const tx = db.transaction("queue", "readwrite");
  for (const record of await tx.store.index("byUser").getAll(userId)) {
    if (record.status === "sent") await tx.store.delete(record.seq as number);
  }
  await tx.done;
  announce();
}
