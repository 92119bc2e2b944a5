import { createHash, randomBytes } from "node:crypto";

/** A link token (256 random bits) and the SHA-256 that is all the database keeps of it. */
export function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashLinkToken(token) };
}

export const hashLinkToken = (token: string) => createHash("sha256").update(token).digest("hex");
