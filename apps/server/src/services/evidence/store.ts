// Where evidence files are kept, by their SHA-256 (content-addressed: the same bytes are stored once). Two kinds,
// chosen by EVIDENCE_STORE: a directory (DATA_DIR/evidence) or an S3-compatible bucket. Uploads always arrive in a
// local temp file first — its hash, and so its key, is known only once the last byte is in.
import type { Env } from "../../env";
import { localStore } from "./store-local";
import { s3Store } from "./store-s3";
import type { EvidenceStore } from "./store-types";

export type { EvidenceStore, StoredBlob } from "./store-types";
export { SHA256_NAME } from "./store-types";

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
