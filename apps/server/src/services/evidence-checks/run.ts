// The checks run as an outbox job (topic `evidence.check`), never in the upload's request: an upload commits its
// files with a pending result and one message per file, and a worker reads each file, compares it and stores the
// result and its flags. A rerun of the same message (delivery is at least once) writes the same result again.
import { buffer } from "node:stream/consumers";
import { sitePosition, verificationWindow } from "@tranche/domain";
import { and, eq, isNull, ne, notInArray, sql } from "drizzle-orm";
import type { Deps } from "../../context";
import type { DbOrTx, Tx } from "../../db/client";
import { evidence, evidenceChecks, evidenceFlags, milestones, projects } from "../../db/schema";
import { toMoney } from "../../lib/money";
import { upsertFlags } from "../evidence/flags";
import { evidenceStore } from "../evidence/store";
import { enqueue } from "../outbox/outbox";
import { GiveUp, type TopicConfig } from "../outbox/worker";
import { analyzeFile, type RaisedFlag } from "./analyze";
import { crossCheck } from "./cross-check";
import { documentKey } from "./fields";
import { CHECKER_VERSION } from "./version";

export const EVIDENCE_CHECK_TOPIC = "evidence.check";
/** Larger files (videos, archives) are not read whole: the checks concern documents and photos (a reused file is
 * found by its SHA-256, computed at upload, whatever its size). */
const MAX_CHECKED_BYTES = 64 * 1024 * 1024;
// Serialises the checks of one milestone (the invoices' running total); beside the other advisory locks (727_00x).
const CHECKS_LOCK = 727_004;

/** In the caller's transaction: marks the files' checks pending and queues one run per file. */
export async function requestChecks(tx: DbOrTx, evidenceIds: string[]): Promise<void> {
  if (evidenceIds.length === 0) return;
  await tx
    .insert(evidenceChecks)
    .values(evidenceIds.map((evidenceId) => ({ evidenceId, status: "pending" })))
    .onConflictDoUpdate({ target: evidenceChecks.evidenceId, set: { status: "pending", error: null } });
  for (const evidenceId of evidenceIds) await enqueue(tx, EVIDENCE_CHECK_TOPIC, { evidenceId });
}

/** Replaces the checker's flags on a file; dismissed flags and the capture tags' flags are left as they are. */
async function storeFlags(tx: Tx, evidenceId: string, flags: RaisedFlag[]): Promise<void> {
  const codes = flags.map((f) => f.code);
  await tx
    .delete(evidenceFlags)
    .where(
      and(
        eq(evidenceFlags.evidenceId, evidenceId),
        ne(evidenceFlags.source, "capture"),
        isNull(evidenceFlags.dismissedAt),
        ...(codes.length ? [notInArray(evidenceFlags.code, codes)] : []),
      ),
    );
  // The capture tags' flags are the field app's: the checker never overwrites them.
  await upsertFlags(
    tx,
    flags.map((f) => ({
      evidenceId,
      code: f.code,
      severity: f.severity,
      message: f.message,
      details: f.details ?? {},
      source: CHECKER_VERSION,
    })),
    "capture",
  );
}

/** Reads, compares and stores one file's checks. A file removed meanwhile is simply skipped. */
export async function runChecks(deps: Deps, evidenceId: string): Promise<void> {
  const [row] = await deps.db
    .select({ evidence, milestone: milestones, project: projects })
    .from(evidence)
    .innerJoin(milestones, eq(milestones.id, evidence.milestoneId))
    .innerJoin(projects, eq(projects.id, milestones.projectId))
    .where(eq(evidence.id, evidenceId));
  if (!row) return;
  let bytes: Buffer;
  if (row.evidence.size > MAX_CHECKED_BYTES) {
    bytes = Buffer.alloc(0);
  } else {
    // From whichever store holds it (a directory or a bucket).
    const stream = await evidenceStore(deps.env).open(row.evidence.sha256);
    if (!stream) throw new GiveUp("the evidence file is missing from storage");
    bytes = await buffer(stream);
  }
  const started = performance.now();
  const analysis = await analyzeFile(bytes, row.evidence.originalName);
  const window = verificationWindow({
    projectStartDate: row.project.startDate,
    milestoneCreatedAt: row.milestone.createdAt,
    dueDate: row.milestone.dueDate,
    startedAt: row.milestone.startedAt,
    slaDays: deps.env.VERIFICATION_SLA_DAYS,
    receivedAt: row.evidence.createdAt,
  });
  await deps.db.transaction(async (tx) => {
    // Serialises checks of one milestone, so two invoices checked at once still see each other's totals.
    await tx.execute(sql`select pg_advisory_xact_lock(${CHECKS_LOCK}, hashtext(${row.milestone.id}))`);
    const flags = await crossCheck(tx, analysis, {
      evidenceId,
      sha256: row.evidence.sha256,
      createdAt: row.evidence.createdAt,
      projectId: row.project.id,
      milestoneId: row.milestone.id,
      milestoneAmount: toMoney(row.milestone.capitalAmount),
      currency: row.project.currency,
      window,
      site: sitePosition(row.project),
      radiusM: deps.env.EVIDENCE_SITE_RADIUS_M,
    });
    const extracted = analysis.extracted;
    const result = {
      status: "done",
      checkerVersion: CHECKER_VERSION,
      extracted,
      photoHash: analysis.photoHash,
      documentKey: extracted?.documentNumber ? documentKey(extracted.kind, extracted.documentNumber) : null,
      error: null,
      checkedAt: new Date(),
    };
    await tx
      .insert(evidenceChecks)
      .values({ evidenceId, ...result })
      .onConflictDoUpdate({ target: evidenceChecks.evidenceId, set: result });
    await storeFlags(tx, evidenceId, flags);
  });
  deps.logger.info(
    { evidenceId, type: analysis.type, flags: analysis.flags.length, ms: Math.round(performance.now() - started) },
    "evidence checked",
  );
}

/** The outbox topic: retried after 5 s and a minute; after three failures the result says `failed`. */
export function evidenceCheckTopic(deps: Deps): Record<string, TopicConfig> {
  return {
    [EVIDENCE_CHECK_TOPIC]: {
      retryDelaysMs: [5_000, 60_000],
      maxAttempts: 3,
      handle: (message) => runChecks(deps, message.payload.evidenceId),
      async onDead(message, error) {
        await deps.db
          .update(evidenceChecks)
          .set({
            status: "failed",
            checkerVersion: CHECKER_VERSION,
            error: (error instanceof Error ? error.message : String(error)).slice(0, 1000),
            checkedAt: new Date(),
          })
          .where(eq(evidenceChecks.evidenceId, message.payload.evidenceId));
      },
    },
  };
}

/**
 * Queues a re-check (the CLI's `evidence recheck`): every file checked by another checker version, failed or never
 * checked; or, with `all`, every file. Returns how many were queued.
 */
export async function queueRechecks(db: DbOrTx, options: { all?: boolean } = {}): Promise<number> {
  const rows = await db
    .select({ id: evidence.id, version: evidenceChecks.checkerVersion, status: evidenceChecks.status })
    .from(evidence)
    .leftJoin(evidenceChecks, eq(evidenceChecks.evidenceId, evidence.id));
  const ids = rows
    .filter((r) => options.all || r.version !== CHECKER_VERSION || r.status === "failed")
    .map((r) => r.id);
  // In pages, so a large platform is not one huge statement.
  for (let i = 0; i < ids.length; i += 500) await requestChecks(db, ids.slice(i, i + 500));
  return ids.length;
}
