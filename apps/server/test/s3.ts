// A real S3 protocol server (s3rver) in the test process, on a free port, with one empty bucket.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import type { Env } from "../src/env";

export interface TestS3 {
  /** The S3_* variables that point a server at this bucket (strings, for child processes too). */
  env: {
    EVIDENCE_STORE: "s3";
    S3_ENDPOINT: string;
    S3_BUCKET: string;
    S3_REGION: string;
    S3_ACCESS_KEY_ID: string;
    S3_SECRET_ACCESS_KEY: string;
    S3_FORCE_PATH_STYLE: "true";
  };
  /** The same, parsed: for an in-process app. */
  settings: Partial<Env>;
  close(): Promise<void>;
}

export async function startS3(bucket = "tranche-evidence"): Promise<TestS3> {
  const directory = mkdtempSync(path.join(tmpdir(), "tranche-s3-"));
  const server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const address = (await server.run()) as { port: number };
  const env = {
    EVIDENCE_STORE: "s3",
    S3_ENDPOINT: `http://127.0.0.1:${address.port}`,
    S3_BUCKET: bucket,
    S3_REGION: "us-east-1",
    // s3rver's fixed credentials.
    S3_ACCESS_KEY_ID: "S3RVER",
    S3_SECRET_ACCESS_KEY: "S3RVER",
    S3_FORCE_PATH_STYLE: "true",
  } as const;
  return {
    env,
    settings: { ...env, S3_FORCE_PATH_STYLE: true },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
