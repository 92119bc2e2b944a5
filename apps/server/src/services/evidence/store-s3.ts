// Evidence files in an S3-compatible bucket under `evidence/<sha256>`. Uploads go up in parts from the local temp
// file (lib-storage's multipart upload) and downloads are streamed from the response: no file is held in memory.
import { createReadStream } from "node:fs";
import { unlink } from "node:fs/promises";
import type { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import type { Env } from "../../env";
import { type EvidenceStore, SHA256_NAME } from "./store-types";

const PREFIX = "evidence/";
const PART_BYTES = 8 * 1024 * 1024;

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === "NotFound" || e.name === "NoSuchKey" || e.$metadata?.httpStatusCode === 404;
}

export function s3Client(env: Env): S3Client {
  return new S3Client({
    region: env.S3_REGION,
    endpoint: env.S3_ENDPOINT,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
    credentials:
      env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
        : undefined,
    // Checksums only where S3 requires them: many S3-compatible stores refuse the newer trailing-checksum
    // uploads, and every file's SHA-256 is checked by Tranche itself.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

export function s3Store(env: Env): EvidenceStore {
  const bucket = env.S3_BUCKET;
  if (!bucket) throw new Error("S3_BUCKET is required for the s3 evidence store");
  const client = s3Client(env);
  const key = (sha256: string) => `${PREFIX}${sha256}`;
  const has = async (sha256: string) => {
    try {
      await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key(sha256) }));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  };
  return {
    kind: "s3",
    location: `s3://${bucket}/${PREFIX}`,
    has,
    async putFile(sha256, file, { keep }) {
      try {
        if (await has(sha256)) return;
        const upload = new Upload({
          client,
          params: {
            Bucket: bucket,
            Key: key(sha256),
            Body: createReadStream(file),
            ContentType: "application/octet-stream",
            Metadata: { sha256 },
          },
          partSize: PART_BYTES,
          queueSize: 2,
        });
        await upload.done();
      } finally {
        if (!keep) await unlink(file).catch(() => {});
      }
    },
    async open(sha256) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key(sha256) }));
        return (answer.Body as Readable | undefined) ?? null;
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async remove(sha256) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key(sha256) }));
    },
    async *list() {
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: PREFIX, ContinuationToken: token }),
        );
        for (const item of page.Contents ?? []) {
          const name = item.Key?.slice(PREFIX.length) ?? "";
          if (SHA256_NAME.test(name)) yield { sha256: name, size: item.Size ?? 0 };
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
  };
}
