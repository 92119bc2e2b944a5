// Encryption at rest for the field store: AES-GCM with one key per device (origin and browser profile), generated
// by WebCrypto as non-extractable and kept in IndexedDB as the CryptoKey object itself — script can use it but never
// read its bytes, and a copy of the database files without the browser's key handling reveals nothing readable.
// The key itself is kept and found by db.ts (deviceKey).
export interface Sealed {
  iv: Uint8Array;
  data: ArrayBuffer;
}

export async function sealBytes(key: CryptoKey, bytes: ArrayBuffer | Uint8Array): Promise<Sealed> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, bytes as BufferSource);
  return { iv, data };
}

export function openBytes(key: CryptoKey, sealed: Sealed): Promise<ArrayBuffer> {
  return crypto.subtle.decrypt({ name: "AES-GCM", iv: sealed.iv as BufferSource }, key, sealed.data);
}

export function seal(key: CryptoKey, value: unknown): Promise<Sealed> {
  return sealBytes(key, new TextEncoder().encode(JSON.stringify(value)));
}

export async function open<T>(key: CryptoKey, sealed: Sealed): Promise<T> {
  return JSON.parse(new TextDecoder().decode(await openBytes(key, sealed))) as T;
}

/** The SHA-256 of the bytes, in hex: what the server checks the upload against. */
export async function sha256Hex(bytes: ArrayBuffer): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
