// Sends the queue, in order, whenever there is a connection: one sender at a time across tabs (a Web Lock), each
// item with its Idempotency-Key, stopping at the first item the server refuses — it needs the verifier's attention
// (a conflict: the milestone changed meanwhile) and nothing after it is sent before they have looked.
import { ApiError, api } from "@/lib/api-client";
import { isConflict, listQueue, type QueueItem, type QueueProblem, queuedFile, setStatus } from "./queue";

/** Statuses worth another try later: the server or the network, not the request. */
const TRANSIENT = new Set([408, 429, 500, 502, 503, 504]);

type Outcome = { kind: "sent" } | { kind: "later" } | { kind: "refused"; problem: QueueProblem };

const path = (item: QueueItem) => `/milestones/${item.milestoneId}`;

async function request(item: QueueItem): Promise<void> {
  const { action } = item;
  const headers = { "Idempotency-Key": item.idempotencyKey };
  const common = { redirectOn401: false, headers };
  switch (action.kind) {
    case "start":
      await api(`${path(item)}/start`, { ...common, method: "POST", body: { round: action.round } });
      return;
    case "checklist":
      await api(`${path(item)}/checklist`, {
        ...common,
        method: "PUT",
        body: { ...action.checklist, notes: action.notes, round: action.round },
      });
      return;
    case "approve":
      await api(`${path(item)}/approve`, {
        ...common,
        method: "POST",
        body: {
          ...(action.comments ? { comments: action.comments } : {}),
          ...(action.share !== undefined ? { share: action.share } : {}),
          round: action.round,
          policyVersion: action.policyVersion,
          evidenceVersion: action.evidenceVersion,
          openAmount: action.openAmount,
        },
      });
      return;
    case "reject":
      await api(`${path(item)}/reject`, {
        ...common,
        method: "POST",
        body: {
          comments: action.comments,
          round: action.round,
          policyVersion: action.policyVersion,
          evidenceVersion: action.evidenceVersion,
        },
      });
      return;
    case "evidence": {
      const bytes = await queuedFile(item.seq);
      if (!bytes) throw new ApiError(0, "file_missing", "The captured file is no longer on this device.");
      const form = new FormData();
      form.append("files", new Blob([bytes], { type: action.type }), action.name);
      form.append("captures", JSON.stringify([action.capture]));
      form.append("round", String(action.round));
      await api(`${path(item)}/evidence`, { ...common, method: "POST", body: form });
      return;
    }
  }
}

async function send(item: QueueItem): Promise<Outcome> {
  try {
    await request(item);
    return { kind: "sent" };
  } catch (error) {
    if (!(error instanceof ApiError)) return { kind: "later" }; // no connection: fetch itself failed
    if (error.code === "file_missing")
      return { kind: "refused", problem: { code: error.code, message: error.message } };
    if (TRANSIENT.has(error.status)) return { kind: "later" };
    if (error.status === 401) {
      return {
        kind: "refused",
        problem: { code: error.code, message: "Your session has ended. Sign in again, then send this again." },
      };
    }
    return { kind: "refused", problem: { code: error.code, message: error.message } };
  }
}

/**
 * Sends this person's queue from its first unsent item until it is empty, an item needs attention, or the
 * connection fails (the item waits for the next attempt). Resolves with what happened.
 */
async function drain(userId: string): Promise<"done" | "blocked" | "offline"> {
  for (;;) {
    const items = await listQueue(userId);
    const next = items.find((item) => item.status !== "sent");
    if (!next) return "done";
    if (next.status === "needs_attention") return "blocked";
    // An item left "sending" by a page that closed mid-request goes again, under the same key: never twice.
    await setStatus(next.seq, "sending");
    const outcome = await send(next);
    if (outcome.kind === "sent") await setStatus(next.seq, "sent");
    else if (outcome.kind === "later") {
      await setStatus(next.seq, "waiting");
      return "offline";
    } else {
      await setStatus(next.seq, "needs_attention", outcome.problem);
      // The milestone moved on: whatever else was done on it in that round needs the same second look.
      if (isConflict(outcome.problem)) {
        for (const item of items) {
          const sameRound = item.milestoneId === next.milestoneId && item.action.round === next.action.round;
          if (sameRound && item.seq !== next.seq && item.status === "waiting") {
            await setStatus(item.seq, "needs_attention", outcome.problem);
          }
        }
      }
      return "blocked";
    }
  }
}

let running: Promise<unknown> | null = null;

/** Starts sending the queue unless a sender is already at work (in this tab or another). */
export function syncQueue(userId: string): Promise<unknown> {
  if (running) return running;
  const work = () => drain(userId);
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  running = (
    locks ? locks.request("tranche-field-sync", { ifAvailable: true }, (lock) => (lock ? work() : null)) : work()
  )
    .catch(() => "offline")
    .finally(() => {
      running = null;
    });
  return running;
}
