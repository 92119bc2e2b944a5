import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
  verify,
} from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Env } from "../../env";
import type { Logger } from "../../lib/logger";

/**
 * The Ed25519 key that signs audit checkpoints. It lives outside the database (an environment variable or a
 * file), so whoever can rewrite the database cannot forge a checkpoint.
 */
export interface AuditKey {
  /** First 16 hex digits of the SHA-256 of the public key (DER): names the key on every checkpoint. */
  keyId: string;
  publicKeyPem: string;
  sign(message: string): string;
  verify(message: string, signature: string): boolean;
}

export const AUDIT_KEY_FILE = "audit-signing-key.pem";

function fromPrivateKey(privateKey: KeyObject): AuditKey {
  if (privateKey.asymmetricKeyType !== "ed25519") throw new Error("the audit signing key must be an Ed25519 key");
  const publicKey = createPublicKey(privateKey);
  const der = publicKey.export({ type: "spki", format: "der" });
  return {
    keyId: createHash("sha256").update(der).digest("hex").slice(0, 16),
    publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
    sign: (message) => sign(null, Buffer.from(message), privateKey).toString("base64"),
    verify: (message, signature) => {
      try {
        return verify(null, Buffer.from(message), publicKey, Buffer.from(signature, "base64"));
      } catch {
        return false;
      }
    },
  };
}

/** Parses a PKCS#8 private key given as PEM text or as base64 of its DER bytes. */
export function parseAuditKey(text: string): AuditKey {
  const trimmed = text.trim();
  const key = trimmed.startsWith("-----BEGIN")
    ? createPrivateKey(trimmed)
    : createPrivateKey({ key: Buffer.from(trimmed, "base64"), format: "der", type: "pkcs8" });
  return fromPrivateKey(key);
}

/** A fresh key, kept in memory only (tests). */
export function generateAuditKey(): AuditKey {
  return fromPrivateKey(generateKeyPairSync("ed25519").privateKey);
}

/** The configured key: AUDIT_SIGNING_KEY, else the file AUDIT_SIGNING_KEY_FILE, else `DATA_DIR/audit-signing-key.pem`. */
export function findAuditKey(env: Env): AuditKey | null {
  if (env.AUDIT_SIGNING_KEY) return parseAuditKey(env.AUDIT_SIGNING_KEY);
  if (env.AUDIT_SIGNING_KEY_FILE) return parseAuditKey(readFileSync(env.AUDIT_SIGNING_KEY_FILE, "utf8"));
  const file = path.resolve(env.DATA_DIR, AUDIT_KEY_FILE);
  return existsSync(file) ? parseAuditKey(readFileSync(file, "utf8")) : null;
}

/** The configured key, or a new one generated into DATA_DIR (with a warning to back it up) on first start. */
export function loadOrCreateAuditKey(env: Env, logger: Logger): AuditKey {
  const found = findAuditKey(env);
  if (found) return found;
  const file = path.resolve(env.DATA_DIR, AUDIT_KEY_FILE);
  const { privateKey } = generateKeyPairSync("ed25519");
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    writeFileSync(file, privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600, flag: "wx" });
  } catch (error) {
    // Another process starting beside this one wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return parseAuditKey(readFileSync(file, "utf8"));
    throw error;
  }
  const key = fromPrivateKey(privateKey);
  logger.warn(
    { file, keyId: key.keyId },
    "generated a new audit signing key: back this file up outside the server (or set AUDIT_SIGNING_KEY); without it, checkpoints cannot be verified",
  );
  return key;
}
