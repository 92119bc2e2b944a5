import { appendFile, mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { AuditCheckpointDto } from "@tranche/domain";

/**
 * The checkpoint log: every checkpoint a process signs, one JSON line each, in a file beside the signing key.
 * Whoever rewrites the database (checkpoint rows included) does not reach it, so `audit verify` can still name
 * the checkpoints they deleted and the heads they rewrote.
 */
export async function appendCheckpointLog(file: string, checkpoint: AuditCheckpointDto): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  // One write of one short line with O_APPEND: processes appending at the same time never interleave.
  await appendFile(file, `${JSON.stringify(checkpoint)}\n`, { flag: "a" });
}

export interface CheckpointLogLine {
  line: number;
  value: unknown;
}

/** Every line of the log (null: there is no log); a line that is not JSON comes back as a problem. */
export async function readCheckpointLog(
  file: string,
): Promise<{ lines: CheckpointLogLine[]; problems: string[] } | null> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  const lines: CheckpointLogLine[] = [];
  const problems: string[] = [];
  text.split("\n").forEach((raw, index) => {
    if (!raw.trim()) return;
    try {
      lines.push({ line: index + 1, value: JSON.parse(raw) });
    } catch {
      problems.push(`line ${index + 1} of the checkpoint log ${file} is not a checkpoint: the log was altered`);
    }
  });
  return { lines, problems };
}
