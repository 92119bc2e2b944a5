// `cli evidence migrate --to s3`: copies every file of the local store (DATA_DIR/evidence) into the S3 store, then
// reads each back and checks its SHA-256, and checks that every evidence row's file is there.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import type { Db } from "../../db/client";
import { evidence } from "../../db/schema";
import type { Env } from "../../env";
import type { EvidenceStore } from "./store";
import { evidenceDir } from "./store-local";

/** The SHA-256 of a stream, read to its end in chunks. */
export async function sha256Of(stream: Readable): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

export interface MigrationReport {
  copied: number;
  alreadyThere: number;
  verified: number;
  mismatched: string[];
  /** Hashes of evidence rows whose file is in the target store after the copy. */
  missing: string[];
}

export async function migrateEvidence(
  db: Db,
  env: Env,
  from: EvidenceStore,
  to: EvidenceStore,
  log: (line: string) => void = () => {},
): Promise<MigrationReport> {
  const report: MigrationReport = { copied: 0, alreadyThere: 0, verified: 0, mismatched: [], missing: [] };
  for await (const blob of from.list()) {
    const source = path.join(evidenceDir(env), blob.sha256);
    // A file whose bytes are not its name's hash is damaged: copying it would spread the damage.
    if ((await sha256Of(createReadStream(source))) !== blob.sha256) {
      report.mismatched.push(blob.sha256);
      log(`mismatch: ${blob.sha256} in ${from.location} does not hash to its name; not copied`);
      continue;
    }
    if (await to.has(blob.sha256)) report.alreadyThere++;
    else {
      await to.putFile(blob.sha256, source, { keep: true });
      report.copied++;
    }
    const stored = await to.open(blob.sha256);
    if (stored && (await sha256Of(stored)) === blob.sha256) report.verified++;
    else {
      report.mismatched.push(blob.sha256);
      log(`mismatch: ${blob.sha256} read back from ${to.location} does not hash to its name`);
    }
  }
  const rows = await db.selectDistinct({ sha256: evidence.sha256 }).from(evidence);
  for (const { sha256 } of rows) {
    if (!(await to.has(sha256))) {
      report.missing.push(sha256);
      log(`missing: evidence ${sha256} is in the database but in neither store`);
    }
  }
  return report;
}
