// Evidence files are stored by their SHA-256 (content-addressed, never by the client's file name) in the store
// EVIDENCE_STORE names (store.ts). Uploads stream to a local temp file under DATA_DIR/evidence/.tmp while they are
// hashed, and are then moved (local) or sent (S3) to their content address.
import { createHash, randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, readdir, rm, stat, unlink } from "node:fs/promises";
import { hostname } from "node:os";
import path from "node:path";
import { Readable, Transform, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { cleanEvidenceName, evidenceContentType } from "@tranche/domain";
import busboy from "busboy";
import { eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client";
import { evidence } from "../../db/schema";
import type { Env } from "../../env";
import { AppError } from "../../errors";
import { evidenceStore } from "./store";
import { evidenceDir } from "./store-local";

const MAX_FILES_PER_UPLOAD = 20;
// Serialises "is this blob still referenced?" against an upload renaming the same content into place.
const BLOB_LOCK = 727_003;

const tempRoot = (env: Env) => path.join(evidenceDir(env), ".tmp");
// Each process writes its partial uploads into a folder of its own, so the start-up sweep can tell a dead
// process's leftovers from a live one's work (several processes may share DATA_DIR).
const host = hostname().replace(/[^\w.-]/g, "_");
const ownTempDirName = `${host}--${process.pid}`;
/** Leftovers of another host's processes (which we cannot check) are removed once this old. */
const STALE_TEMP_MS = 24 * 60 * 60 * 1000;

/** Whether a process with this pid runs on this host. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * At start-up: removes partial uploads left by a process that was killed mid-upload (SIGKILL, a crash, a
 * power cut). Never visible as evidence — a file becomes evidence only when its row commits — but they take
 * disk space. Returns how many folders were removed.
 */
export async function sweepPartialUploads(env: Env): Promise<number> {
  const root = tempRoot(env);
  let entries: string[];
  try {
    entries = await readdir(root);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of entries) {
    const full = path.join(root, name);
    const [owner, pid] = name.split("--");
    // Our own pid's folder is a previous incarnation's (containers restart as the same pid).
    const dead =
      owner === host && (name === ownTempDirName || !isAlive(Number(pid)))
        ? true
        : Date.now() - (await stat(full).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs > STALE_TEMP_MS;
    if (dead) {
      await rm(full, { recursive: true, force: true });
      removed++;
    }
  }
  return removed;
}

/** One upload request may carry several files; this caps the whole body. */
export const maxRequestBytes = (env: Env) => Math.floor(env.MAX_UPLOAD_REQUEST_MB * 1024 * 1024);

class UploadTooLarge extends Error {}

/**
 * Nothing more of the body is read into the upload once this is thrown. The HTTP layer then discards what is
 * still in flight for at most half a second and closes the connection: closing at once would reset it with
 * the 413 unread, and the client would see a network error instead of the reason.
 */
function tooLarge(message: string, details: Record<string, unknown>): AppError {
  return new AppError("payload_too_large", message, details);
}

export interface ReceivedFile {
  tempPath: string;
  sha256: string;
  size: number;
  contentType: string;
  originalName: string;
}

async function removeQuietly(file: string) {
  await unlink(file).catch(() => {});
}

/** The largest text field an upload may carry beside its files (the `captures` JSON of 20 files is ~4 kB). */
const MAX_FIELD_BYTES = 64 * 1024;

export interface ReceivedUpload {
  files: ReceivedFile[];
  /** The text fields sent beside the files (e.g. `captures`), the first value of each name. */
  fields: Record<string, string>;
}

/**
 * Streams every file part of a multipart request to a temp file while hashing it, and keeps its text fields. A file
 * over the limit, a broken stream or no file at all leaves no temp file behind.
 */
export async function receiveFiles(request: Request, env: Env): Promise<ReceivedUpload> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data/i.test(type)) {
    throw new AppError("unsupported_media_type", "Send the files as multipart/form-data.");
  }
  if (!request.body) throw new AppError("invalid_input", "Choose at least one file to upload.");
  const maxBytes = Math.floor(env.MAX_UPLOAD_MB * 1024 * 1024);
  const requestLimit = maxRequestBytes(env);
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > requestLimit) {
    throw tooLarge(`An upload may carry at most ${env.MAX_UPLOAD_REQUEST_MB} MB; send fewer files at a time.`, {
      maxRequestMegabytes: env.MAX_UPLOAD_REQUEST_MB,
    });
  }
  const tempDir = path.join(tempRoot(env), ownTempDirName);
  await mkdir(tempDir, { recursive: true });

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": type },
      // Browsers send file names as raw UTF-8; busboy's latin1 default garbled every accent.
      defParamCharset: "utf8",
      limits: {
        fileSize: maxBytes,
        files: MAX_FILES_PER_UPLOAD,
        fields: 20,
        fieldSize: MAX_FIELD_BYTES,
        parts: MAX_FILES_PER_UPLOAD + 20,
      },
    });
  } catch {
    throw new AppError("invalid_input", "The upload is not valid multipart/form-data.");
  }

  const files: (ReceivedFile & { tooLarge: boolean })[] = [];
  const writes: Promise<void>[] = [];
  // Every stage of every file's pipeline: on a cut-off each is destroyed, so no write waits forever.
  const fileStages: (Readable | Writable)[] = [];
  let tooMany = false;
  // Reading stops the moment a file or the whole body passes its limit: nothing more is read or written.
  const source = Readable.fromWeb(request.body as unknown as WebReadableStream);
  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      received += chunk.length;
      done(received > requestLimit ? new UploadTooLarge() : null, chunk);
    },
  });
  parser.on("file", (_field, stream, info) => {
    const entry = {
      tempPath: path.join(tempDir, `${randomUUID()}.part`),
      sha256: "",
      size: 0,
      // Only types a browser cannot run as a page, script or style sheet are believed (evidenceContentType).
      contentType: evidenceContentType(info.mimeType),
      originalName: cleanEvidenceName(info.filename),
      tooLarge: false,
    };
    files.push(entry);
    const hash = createHash("sha256");
    stream.on("limit", () => {
      entry.tooLarge = true;
      counter.destroy(new UploadTooLarge());
    });
    const hasher = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        entry.size += chunk.length;
        done(null, chunk);
      },
    });
    const target = createWriteStream(entry.tempPath);
    fileStages.push(stream, hasher, target);
    writes.push(
      pipeline(stream, hasher, target).then(() => {
        entry.sha256 = hash.digest("hex");
      }),
    );
  });
  parser.on("filesLimit", () => {
    tooMany = true;
  });
  const fields: Record<string, string> = {};
  let fieldTooLong = null as string | null;
  parser.on("field", (name, value, info) => {
    if (info.valueTruncated) fieldTooLong = name;
    if (!(name in fields)) fields[name] = value;
  });

  let cutOff = false;
  try {
    await pipeline(source, counter, parser);
    await Promise.all(writes);
  } catch (error) {
    cutOff = error instanceof UploadTooLarge;
    // A destroyed parser leaves its file streams open, and a pipeline does not always notice its source
    // closing mid-file: end every stage before removing what they wrote.
    for (const stage of fileStages) stage.destroy();
    await Promise.allSettled(writes);
    await Promise.all(files.map((f) => removeQuietly(f.tempPath)));
    if (!cutOff) {
      throw new AppError("invalid_input", "The upload was interrupted or is not valid multipart/form-data.");
    }
  }

  const oversized = files.find((f) => f.tooLarge);
  if (cutOff || oversized || tooMany || files.length === 0) {
    await Promise.all(files.map((f) => removeQuietly(f.tempPath)));
    if (oversized) {
      throw tooLarge(`"${oversized.originalName}" is larger than the ${env.MAX_UPLOAD_MB} MB limit per file.`, {
        maxMegabytes: env.MAX_UPLOAD_MB,
        file: oversized.originalName,
      });
    }
    if (cutOff) {
      throw tooLarge(`An upload may carry at most ${env.MAX_UPLOAD_REQUEST_MB} MB; send fewer files at a time.`, {
        maxRequestMegabytes: env.MAX_UPLOAD_REQUEST_MB,
      });
    }
    if (tooMany) throw new AppError("payload_too_large", `Upload at most ${MAX_FILES_PER_UPLOAD} files at a time.`);
    throw new AppError("invalid_input", "Choose at least one file to upload.");
  }
  // An empty file proves nothing: refuse it by name, and the whole request with it (nothing is stored).
  const empty = files.find((f) => f.size === 0);
  if (empty) {
    await Promise.all(files.map((f) => removeQuietly(f.tempPath)));
    throw new AppError("invalid_input", `"${empty.originalName}" is empty; evidence must have content.`, {
      files: `"${empty.originalName}" is empty.`,
    });
  }
  if (fieldTooLong) {
    await Promise.all(files.map((f) => removeQuietly(f.tempPath)));
    const problem = `A field sent beside the files may carry at most ${MAX_FIELD_BYTES / 1024} kB.`;
    throw new AppError("invalid_input", `${fieldTooLong}: ${problem}`, { [fieldTooLong]: problem });
  }
  return { files: files.map(({ tooLarge: _, ...file }) => file), fields };
}

export async function discardTemps(files: ReceivedFile[]) {
  await Promise.all(files.map((f) => removeQuietly(f.tempPath)));
}

async function lockBlobs(tx: Tx, hashes: string[]) {
  // Sorted, so two transactions locking several hashes cannot deadlock.
  for (const sha of [...new Set(hashes)].sort()) {
    await tx.execute(sql`select pg_advisory_xact_lock(${BLOB_LOCK}, hashtext(${sha}))`);
  }
}

/** Inside the upload's transaction: locks the hashes and moves (or sends) each temp file to its content address. */
export async function placeBlobs(tx: Tx, env: Env, files: ReceivedFile[]): Promise<void> {
  await lockBlobs(
    tx,
    files.map((f) => f.sha256),
  );
  const store = evidenceStore(env);
  for (const file of files) await store.putFile(file.sha256, file.tempPath, { keep: false });
}

/** Deletes each blob that no evidence row references any more. */
export async function removeUnreferencedBlobs(db: Db, env: Env, hashes: string[]) {
  if (hashes.length === 0) return;
  await db.transaction(async (tx) => {
    await lockBlobs(tx, hashes);
    for (const sha of new Set(hashes)) {
      const [row] = await tx.select({ id: evidence.id }).from(evidence).where(eq(evidence.sha256, sha)).limit(1);
      if (!row) await evidenceStore(env).remove(sha);
    }
  });
}
