import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Env } from "../../env";
import type { Logger } from "../../lib/logger";

/**
 * Encrypts webhook signing secrets at rest (AES-256-GCM). The key lives outside the database, so a copy of the
 * database alone cannot sign a webhook a custodian would accept.
 */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

export const WEBHOOK_KEY_FILE = "webhook-secrets.key";

function fromKey(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error("the webhook secrets key must be 32 bytes");
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return ["v1", iv.toString("base64"), cipher.getAuthTag().toString("base64"), body.toString("base64")].join(":");
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split(":");
      if (version !== "v1" || !iv || !tag || body === undefined) throw new Error("not a sealed webhook secret");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64"));
      decipher.setAuthTag(Buffer.from(tag, "base64"));
      return Buffer.concat([decipher.update(Buffer.from(body, "base64")), decipher.final()]).toString("utf8");
    },
  };
}

/** A fresh key in memory only (tests). */
export function generateSecretBox(): SecretBox {
  return fromKey(randomBytes(32));
}

/** WEBHOOK_SECRETS_KEY, else DATA_DIR/webhook-secrets.key, generated there (with a warning) on first start. */
export function loadOrCreateSecretBox(env: Env, logger: Logger): SecretBox {
  if (env.WEBHOOK_SECRETS_KEY) return fromKey(Buffer.from(env.WEBHOOK_SECRETS_KEY, "base64"));
  const file = path.resolve(env.DATA_DIR, WEBHOOK_KEY_FILE);
  if (existsSync(file)) return fromKey(Buffer.from(readFileSync(file, "utf8").trim(), "base64"));
  const key = randomBytes(32);
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    writeFileSync(file, `${key.toString("base64")}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    // Another process starting beside this one wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      return fromKey(Buffer.from(readFileSync(file, "utf8").trim(), "base64"));
    }
    throw error;
  }
  logger.warn(
    { file },
    "generated a new webhook secrets key: back this file up (or set WEBHOOK_SECRETS_KEY); without it, registered endpoints cannot be signed for",
  );
  return fromKey(key);
}
