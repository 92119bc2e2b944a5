// Where evidence files are kept, by their SHA-256 (content-addressed: the same bytes are stored once). Two kinds,
// chosen by EVIDENCE_STORE: a directory (DATA_DIR/evidence) or an S3-compatible bucket. Uploads always arrive in a
// local temp file first — its hash, and so its key, is known only once the last byte is in.
import type { Readable } from "node:stream";
import type { Env } from "../../env";
import { localStore } from "./store-local";
import { s3Store } from "./store-s3";

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

// One store (and, for S3, one client with its connection pool) per configuration.
const stores = new WeakMap<Env, EvidenceStore>();

/** The store EVIDENCE_STORE names. */
export function evidenceStore(env: Env): EvidenceStore {
  let store = stores.get(env);
  if (!store) {
    store = env.EVIDENCE_STORE === "s3" ? s3Store(env) : localStore(env);
    stores.set(env, store);
  }
  return store;
}
