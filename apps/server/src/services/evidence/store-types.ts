// What every evidence store offers (store.ts chooses one).
import type { Readable } from "node:stream";

export interface StoredBlob {
  sha256: string;
  size: number;
}

export interface EvidenceStore {
  readonly kind: "local" | "s3";
  /** For messages: the directory, or s3://bucket/prefix. */
  readonly location: string;
  /** Stores a local file under its hash (nothing when that hash is stored already). `keep: false` consumes the file. */
  putFile(sha256: string, file: string, options: { keep: boolean }): Promise<void>;
  /** The stored bytes as a stream (never read whole), or null when nothing is stored under that hash. */
  open(sha256: string): Promise<Readable | null>;
  has(sha256: string): Promise<boolean>;
  remove(sha256: string): Promise<void>;
  /** Every stored file. */
  list(): AsyncIterable<StoredBlob>;
}

export const SHA256_NAME = /^[0-9a-f]{64}$/;
