import {
  assessCapture,
  type CapturedBy,
  type CaptureFlag,
  capturesSchema,
  type EvidenceDto,
  queryNumber,
  type SeenState,
  seenStateFields,
  sitePosition,
  verificationWindow,
} from "@tranche/domain";
import { z } from "zod";
import type { ServiceContext } from "../../context";
import type { Tx } from "../../db/client";
import { evidence } from "../../db/schema";
import { AppError, conflict, forbidden } from "../../errors";
import { parseWith } from "../../lib/validate";
import { type MilestoneAccess, requireVisibleMilestone } from "../access";
import { appendAudit } from "../audit/append";
import { requestChecks } from "../evidence-checks/run";
import { rememberAnswer, requestScope, storedAnswer } from "../idempotency";
import { isEligibleVerifier } from "../verification/access";
import { requireSeenState } from "../verification/seen";
import { evidenceList } from "./dto";
import { upsertFlags } from "./flags";
import { discardTemps, placeBlobs, type ReceivedFile, receiveFiles, removeUnreferencedBlobs } from "./storage";
import { voidDecisionsOnChangedEvidence } from "./voids";

function requireUploader(access: MilestoneAccess, ctx: ServiceContext) {
  if (!access.isOwner && !isEligibleVerifier(access, ctx.actor)) {
    throw forbidden("Only the project owner or its verifier can upload evidence.");
  }
  if (access.milestone.status === "verified") {
    throw conflict("Milestone is verified; its evidence cannot be changed.", { status: "verified" });
  }
}

type Capture = z.output<typeof capturesSchema>[number];

/** The text fields an upload may carry beside its files. */
const uploadFieldsSchema = z.strictObject({
  captures: z.string().optional(),
  round: z.string().optional(),
});

/** `captures` (JSON, one entry per file, in order) and `round` (the verification round the uploader saw). */
function readFields(fields: Record<string, string>, files: ReceivedFile[]): { captures: Capture[]; seen: SeenState } {
  const raw = parseWith(uploadFieldsSchema, fields);
  let captures: Capture[] = [];
  if (raw.captures !== undefined) {
    let json: unknown;
    try {
      json = JSON.parse(raw.captures);
    } catch {
      throw new AppError("invalid_input", "captures: captures must be a JSON array.", {
        captures: "captures must be a JSON array.",
      });
    }
    captures = parseWith(z.strictObject({ captures: capturesSchema }), { captures: json }).captures;
    if (captures.length !== files.length) {
      const problem = `captures must have one entry per file, in order: ${files.length} ${files.length === 1 ? "file" : "files"}, ${captures.length} ${captures.length === 1 ? "entry" : "entries"}.`;
      throw new AppError("invalid_input", `captures: ${problem}`, { captures: problem });
    }
  }
  // A form field is text: read as digits only, as a query's numbers are ("0x1", "1e0" or " 1 " are not round 1).
  const round = queryNumber(ROUND_MESSAGE).pipe(seenStateFields.round.unwrap()).optional();
  const seen = parseWith(z.strictObject({ round }), raw.round === undefined ? {} : { round: raw.round });
  return { captures, seen };
}

const ROUND_MESSAGE = "Round must be a whole number of at least 1.";

/** A file that is not what the device hashed when it captured it: the whole upload is refused. */
function requireMatchingHashes(files: ReceivedFile[], captures: Capture[]): void {
  captures.forEach((capture, index) => {
    const file = files[index];
    if (capture && capture.sha256 !== file.sha256) {
      throw new AppError(
        "hash_mismatch",
        `"${file.originalName}" is not the file that was captured: its SHA-256 is ${file.sha256}, the capture states ${capture.sha256}. Nothing was uploaded.`,
        { file: file.originalName, index, expected: capture.sha256, received: file.sha256 },
      );
    }
  });
}

/**
 * Upserts capture flags: one per code per file, and a flag someone dismissed stays dismissed (its text is left as
 * it was when they read it). The background evidence checks write to the same table.
 */
export async function raiseCaptureFlags(
  tx: Tx,
  evidenceId: string,
  flags: CaptureFlag[],
  details: Record<string, unknown>,
) {
  await upsertFlags(
    tx,
    flags.map((f) => ({ evidenceId, ...f, details, source: "capture" })),
  );
}

export interface UploadResult {
  status: number;
  body: { items: EvidenceDto[] };
  replayed: boolean;
}

/**
 * Multipart upload of one or more files: permission is checked before the body is read, the files are streamed
 * and hashed to temp files, then rows, capture tags and flags, blobs and audit events are committed together.
 * With `captures`, every tagged file's SHA-256 must be the one its device computed (else 422 `hash_mismatch`, and
 * nothing is stored); each tag's distance to the site and place in the milestone's window raise flags. An
 * Idempotency-Key answers a repeated upload with the first answer, storing nothing twice; the key sent with other
 * files is refused with 409.
 */
export async function uploadEvidence(
  ctx: ServiceContext,
  milestoneId: string,
  request: Request,
  options: { idempotencyKey?: string } = {},
): Promise<UploadResult> {
  requireUploader(await requireVisibleMilestone(ctx.db, ctx.actor, milestoneId), ctx);
  // A replay is answered once the body is in (an answer sent while the client is still sending can be lost).
  const { files, fields } = await receiveFiles(request, ctx.env);
  try {
    const { captures, seen } = readFields(fields, files);
    requireMatchingHashes(files, captures);
    // A key is kept for what was sent (each file's name and hash, their tags, the round seen): the same key with
    // other files is another request, refused with 409, never answered as the first upload while dropping its files.
    const scope = requestScope("evidence", milestoneId, {
      files: files.map((f) => ({ name: f.originalName, sha256: f.sha256 })),
      captures,
      seen,
    });
    return await ctx.db.transaction(async (tx) => {
      const access = await requireVisibleMilestone(tx, ctx.actor, milestoneId, { lock: true });
      const stored = await storedAnswer<UploadResult["body"]>(tx, ctx.actor.id, options.idempotencyKey, scope);
      if (stored) {
        await discardTemps(files);
        return { ...stored, replayed: true };
      }
      requireUploader(access, ctx);
      requireSeenState(access, seen);
      await placeBlobs(tx, ctx.env, files);
      const receivedAt = new Date();
      const window = verificationWindow({
        projectStartDate: access.project.startDate,
        milestoneCreatedAt: access.milestone.createdAt,
        dueDate: access.milestone.dueDate,
        startedAt: access.milestone.startedAt,
        slaDays: ctx.env.VERIFICATION_SLA_DAYS,
        receivedAt,
      });
      const site = sitePosition(access.project);
      // Only an eligible verifier's capture is one made by the verification; anyone else's tags are the owner's word.
      const uploadedAs: CapturedBy = isEligibleVerifier(access, ctx.actor) ? "verifier" : "owner";
      const assessed = captures.map((capture) =>
        capture
          ? assessCapture({
              capture: { ...capture, accuracy: capture.accuracy ?? null, capturedAt: new Date(capture.capturedAt) },
              site,
              radiusM: ctx.env.EVIDENCE_SITE_RADIUS_M,
              window,
              receivedAt,
            })
          : null,
      );
      const rows = await tx
        .insert(evidence)
        .values(
          files.map((f, i) => {
            const capture = captures[i];
            return {
              milestoneId,
              sha256: f.sha256,
              size: f.size,
              contentType: f.contentType,
              originalName: f.originalName,
              uploadedBy: ctx.actor.id,
              uploadedAs,
              ...(capture
                ? {
                    captureLatitude: capture.latitude,
                    captureLongitude: capture.longitude,
                    captureAccuracyM: capture.accuracy ?? null,
                    capturedAt: new Date(capture.capturedAt),
                    distanceToSiteM: assessed[i]?.distanceToSiteM ?? null,
                  }
                : {}),
            };
          }),
        )
        .returning();
      for (const [i, row] of rows.entries()) {
        const capture = captures[i];
        const flags = assessed[i]?.flags ?? [];
        await raiseCaptureFlags(tx, row.id, flags, {
          site,
          radiusM: ctx.env.EVIDENCE_SITE_RADIUS_M,
          window: { opens: window.opens.toISOString(), closes: window.closes.toISOString() },
        });
        await appendAudit(tx, {
          actorId: ctx.actor.id,
          action: "evidence.uploaded",
          entityType: "evidence",
          entityId: row.id,
          projectId: access.project.id,
          after: {
            milestoneId,
            originalName: row.originalName,
            sha256: row.sha256,
            size: row.size,
            contentType: row.contentType,
            ...(capture
              ? {
                  capture: {
                    latitude: capture.latitude,
                    longitude: capture.longitude,
                    accuracy: capture.accuracy ?? null,
                    capturedAt: capture.capturedAt,
                    distanceToSiteM: row.distanceToSiteM,
                  },
                  flags: flags.map((f) => f.code),
                }
              : {}),
          },
        });
      }
      await voidDecisionsOnChangedEvidence(tx, ctx, access, { added: rows.map((r) => r.originalName) });
      // Read, compared and flagged in the background (outbox topic evidence.check): the upload never waits on it.
      await requestChecks(
        tx,
        rows.map((r) => r.id),
      );
      const listed = new Map((await evidenceList(tx, ctx.actor, access.milestone)).map((e) => [e.id, e]));
      const body = { items: rows.flatMap((r) => listed.get(r.id) ?? []) };
      await rememberAnswer(tx, ctx.actor.id, options.idempotencyKey, scope, { status: 201, body });
      return { status: 201, body, replayed: false };
    });
  } catch (error) {
    await discardTemps(files);
    await removeUnreferencedBlobs(
      ctx.db,
      ctx.env,
      files.map((f) => f.sha256),
    );
    throw error;
  }
}
