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
export interface AuditKey extends AuditPublicKey {
  sign(message: string): string;
  /** The checkpoint log beside the key (JSON lines, outside the database); null: none is kept (tests). */
  logFile: string | null;
}

/** What checking a signature needs: the public half alone (an auditor's or a custodian's copy of it). */
export interface AuditPublicKey {
  /** First 16 hex digits of the SHA-256 of the public key (DER): names the key on every checkpoint. */
  keyId: string;
  publicKeyPem: string;
  verify(message: string, signature: string): boolean;
}

export const AUDIT_KEY_FILE = "audit-signing-key.pem";
export const AUDIT_LOG_FILE = "audit-checkpoints.jsonl";

function fromPublicKey(publicKey: KeyObject): AuditPublicKey {
  if (publicKey.asymmetricKeyType !== "ed25519") throw new Error("the audit signing key must be an Ed25519 key");
  const der = publicKey.export({ type: "spki", format: "der" });
  return {
    keyId: createHash("sha256").update(der).digest("hex").slice(0, 16),
    publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
    verify: (message, signature) => {
      try {
        return verify(null, Buffer.from(message), publicKey, Buffer.from(signature, "base64"));
      } catch {
        return false;
      }
    },
  };
}

function fromPrivateKey(privateKey: KeyObject, logFile: string | null): AuditKey {
  if (privateKey.asymmetricKeyType !== "ed25519") throw new Error("the audit signing key must be an Ed25519 key");
  return {
    ...fromPublicKey(createPublicKey(privateKey)),
    sign: (message) => sign(null, Buffer.from(message), privateKey).toString("base64"),
    logFile,
  };
}

/** Parses a PKCS#8 private key given as PEM text or as base64 of its DER bytes. */
export function parseAuditKey(text: string, logFile: string | null = null): AuditKey {
  const trimmed = text.trim();
  const key = trimmed.startsWith("-----BEGIN")
    ? createPrivateKey(trimmed)
    : createPrivateKey({ key: Buffer.from(trimmed, "base64"), format: "der", type: "pkcs8" });
  return fromPrivateKey(key, logFile);
}

/** A public key as `GET /api/audit/public-key` gives it (SPKI PEM): checks signatures without the private key. */
export function parseAuditPublicKey(pem: string): AuditPublicKey {
  return fromPublicKey(createPublicKey(pem.trim()));
}

/** A fresh key, kept in memory only (tests); `logFile` keeps a checkpoint log there. */
export function generateAuditKey(options: { logFile?: string | null } = {}): AuditKey {
  return fromPrivateKey(generateKeyPairSync("ed25519").privateKey, options.logFile ?? null);
}

/**
 * Where every process appends the checkpoints it signs: AUDIT_CHECKPOINT_LOG, else beside the key file
 * (AUDIT_SIGNING_KEY_FILE's folder, or DATA_DIR), so the log is as far from the database as the key.
 */
export function checkpointLogPath(env: Env): string {
  if (env.AUDIT_CHECKPOINT_LOG) return path.resolve(env.AUDIT_CHECKPOINT_LOG);
  const folder =
    !env.AUDIT_SIGNING_KEY && env.AUDIT_SIGNING_KEY_FILE ? path.dirname(env.AUDIT_SIGNING_KEY_FILE) : env.DATA_DIR;
  return path.resolve(folder, AUDIT_LOG_FILE);
}

/** The configured key: AUDIT_SIGNING_KEY, else the file AUDIT_SIGNING_KEY_FILE, else `DATA_DIR/audit-signing-key.pem`. */
export function findAuditKey(env: Env): AuditKey | null {
  const log = checkpointLogPath(env);
  if (env.AUDIT_SIGNING_KEY) return parseAuditKey(env.AUDIT_SIGNING_KEY, log);
  if (env.AUDIT_SIGNING_KEY_FILE) return parseAuditKey(readFileSync(env.AUDIT_SIGNING_KEY_FILE, "utf8"), log);
  const file = path.resolve(env.DATA_DIR, AUDIT_KEY_FILE);
  return existsSync(file) ? parseAuditKey(readFileSync(file, "utf8"), log) : null;
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
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      return parseAuditKey(readFileSync(file, "utf8"), checkpointLogPath(env));
    }
    throw error;
  }
  const key = fromPrivateKey(privateKey, checkpointLogPath(env));
  logger.warn(
    { file, keyId: key.keyId },
    "generated a new audit signing key: back this file up outside the server (or set AUDIT_SIGNING_KEY); without it, checkpoints cannot be verified",
  );
  return key;
}
