// TOTP (RFC 6238: 30-second steps, 6 digits, HMAC-SHA-1 as every authenticator app expects) via @oslojs/otp.
import { createHash, randomBytes } from "node:crypto";
import { encodeBase32LowerCaseNoPadding, encodeBase32UpperCaseNoPadding } from "@oslojs/encoding";
import { createTOTPKeyURI, verifyHOTP } from "@oslojs/otp";
import QRCode from "qrcode";

const STEP_SECONDS = 30;
const DIGITS = 6;

export const newTotpKey = () => new Uint8Array(randomBytes(20));

export async function totpSetup(key: Uint8Array, accountName: string) {
  const otpauthUrl = createTOTPKeyURI("Tranche", accountName, key, STEP_SECONDS, DIGITS);
  const svg = await QRCode.toString(otpauthUrl, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return {
    secret: encodeBase32UpperCaseNoPadding(key),
    otpauthUrl,
    qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`,
  };
}

/**
 * The time step whose code this is (the current one, or one step either side for clock drift), or null. A
 * step at or before `lastUsedStep` is refused, so a code seen over someone's shoulder cannot be used again.
 */
export function matchTotp(key: Uint8Array, code: string, lastUsedStep: number | null, now = Date.now()): number | null {
  const current = Math.floor(now / 1000 / STEP_SECONDS);
  for (const step of [current, current - 1, current + 1]) {
    if (lastUsedStep !== null && step <= lastUsedStep) continue;
    if (verifyHOTP(key, BigInt(step), DIGITS, code)) return step;
  }
  return null;
}

/** Recovery codes: 50 random bits each, shown as "abcde-fghij"; only their SHA-256 is stored. */
export function newRecoveryCode(): string {
  const raw = encodeBase32LowerCaseNoPadding(new Uint8Array(randomBytes(7))).slice(0, 10);
  return `${raw.slice(0, 5)}-${raw.slice(5)}`;
}

/** The hash of a recovery code already normalised by recoveryCodeSchema (lower case, no dash). */
export const hashRecoveryCode = (normalised: string) =>
  createHash("sha256").update(normalised.replace(/-/g, "")).digest("hex");
