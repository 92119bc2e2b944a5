import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { PASSWORD_MAX, PASSWORD_MIN } from "@tranche/domain";
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import * as common from "@zxcvbn-ts/language-common";
import * as english from "@zxcvbn-ts/language-en";

// node:crypto's scrypt runs on libuv's thread pool, so hashing never blocks the event loop.
const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: object,
) => Promise<Buffer>;
const PARAMS = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 64;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password.normalize("NFKC"), salt, KEY_LENGTH, PARAMS);
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltB64, keyB64] = stored.split("$");
  if (scheme !== "scrypt" || !saltB64 || !keyB64) return false;
  const expected = Buffer.from(keyB64, "base64");
  const key = await scryptAsync(password.normalize("NFKC"), Buffer.from(saltB64, "base64"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: PARAMS.maxmem,
  });
  return timingSafeEqual(key, expected);
}

/** A hash of a random password: verifying against it costs the same as a real check (no user enumeration by timing). */
let dummyHash: Promise<string> | undefined;
export function timingDummyHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(24).toString("base64"));
  return dummyHash;
}

const zxcvbn = new ZxcvbnFactory({
  dictionary: { ...common.dictionary, ...english.dictionary },
  graphs: common.adjacencyGraphs,
  translations: english.translations,
});

/** Score 0–4 from zxcvbn; below this a password is refused as easily guessed. */
const MIN_SCORE = 3;

/** Reasons a password is refused, empty when it is acceptable (length first, then guessability). */
export function passwordWeaknesses(password: string, userInputs: string[] = []): string[] {
  if (password.length < PASSWORD_MIN) return [`Use at least ${PASSWORD_MIN} characters.`];
  if (password.length > PASSWORD_MAX) return [`Use at most ${PASSWORD_MAX} characters.`];
  const inputs = userInputs.flatMap((value) => [value, ...value.split(/[@\s.]+/)]).filter((v) => v.length > 2);
  const result = zxcvbn.check(password, inputs);
  if (result.score >= MIN_SCORE) return [];
  const reasons = [result.feedback.warning, ...result.feedback.suggestions].filter(
    (reason): reason is string => typeof reason === "string" && reason.length > 0,
  );
  return reasons.length
    ? reasons
    : ["This password is easy to guess. Add more words or characters that are less common."];
}
