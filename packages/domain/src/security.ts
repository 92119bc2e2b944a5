import { z } from "zod";

/** A session must have passed the second factor this recently before acting on money or access. */
export const SECOND_FACTOR_VALID_HOURS = 12;
export const RECOVERY_CODE_COUNT = 10;

/** A six-digit code from an authenticator app (spaces allowed, as apps show "123 456"). */
export const totpCodeSchema = z
  .string({ error: "Enter the 6-digit code from your authenticator app." })
  .transform((v) => v.replace(/\s+/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, { error: "Enter the 6-digit code from your authenticator app." }));

/** A recovery code as printed ("abcde-fghij"); case, spaces and dashes do not matter. */
export const recoveryCodeSchema = z
  .string({ error: "Enter one of your recovery codes." })
  .transform((v) => v.toLowerCase().replace(/[\s-]+/g, ""))
  .pipe(z.string().regex(/^[a-z2-7]{10}$/, { error: "That is not a recovery code (10 letters and digits)." }));

/**
 * The account's password typed again, asked by every change to how the person signs in or passes the second factor:
 * adding or revoking a passkey, setting up, turning on or off the authenticator app, replacing recovery codes. A
 * session alone — a cookie copied from an unattended browser, a script run in the page, an unlocked laptop — never
 * changes them, even one that passed the second factor minutes ago: a planted passkey would sign in without the
 * password and outlive a password change, and revoking the owner's factors would lock them out of their protection.
 */
export const passwordAgainSchema = z
  .string({ error: "Enter your password." })
  .min(1, { error: "Enter your password." })
  .max(1024, { error: "Password must be at most 1024 characters." });

export const enableTotpSchema = z.strictObject({ code: totpCodeSchema, password: passwordAgainSchema });

/** base64url, as WebAuthn's JSON encodes binary fields (bounded: no credential field is anywhere near 16 kB). */
const base64url = z
  .string({ error: "Expected base64url text." })
  .max(16_384, { error: "Too long." })
  .regex(/^[A-Za-z0-9_-]*$/, { error: "Expected base64url text." });

const webauthnCredential = {
  id: base64url.min(1),
  rawId: base64url.min(1),
  type: z.literal("public-key", { error: 'Expected "public-key".' }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
};

/** What the browser's navigator.credentials.get() returns, as JSON (a passkey assertion). */
export const passkeyAssertionSchema = z.object(
  {
    ...webauthnCredential,
    response: z.object({
      clientDataJSON: base64url.min(1),
      authenticatorData: base64url.min(1),
      signature: base64url.min(1),
      userHandle: base64url.optional(),
    }),
  },
  { error: "Use your passkey to continue." },
);

/** What the browser's navigator.credentials.create() returns, as JSON (a new passkey). */
export const passkeyAttestationSchema = z.object(
  {
    ...webauthnCredential,
    response: z.object({
      clientDataJSON: base64url.min(1),
      attestationObject: base64url.min(1),
      authenticatorData: base64url.optional(),
      transports: z.array(z.string().max(40)).max(10).optional(),
      publicKeyAlgorithm: z.number().int().optional(),
      publicKey: base64url.optional(),
    }),
  },
  { error: "Create the passkey with your device first." },
);

export const PASSKEY_NAME_MAX = 60;

export const passkeyNameSchema = z
  .string({ error: "Name this passkey, e.g. “Work laptop”." })
  .trim()
  .min(1, { error: "Name this passkey, e.g. “Work laptop”." })
  .max(PASSKEY_NAME_MAX, { error: `Keep the name to ${PASSKEY_NAME_MAX} characters.` });

/** A change that starts with the password alone (passkey registration options, the app's set-up, revoking a passkey). */
export const confirmPasswordSchema = z.strictObject({ password: passwordAgainSchema });
export type ConfirmPasswordInput = z.infer<typeof confirmPasswordSchema>;

export const registerPasskeySchema = z.strictObject({ name: passkeyNameSchema, response: passkeyAttestationSchema });
export const passkeySignInSchema = z.strictObject({ response: passkeyAssertionSchema });

const secondFactorFields = {
  code: totpCodeSchema.optional(),
  recoveryCode: recoveryCodeSchema.optional(),
  passkey: passkeyAssertionSchema.optional(),
};
/** Exactly one way of passing it: the message goes under the code field the forms show. */
const exactlyOneFactor = (v: { code?: unknown; recoveryCode?: unknown; passkey?: unknown }) =>
  [v.code, v.recoveryCode, v.passkey].filter((x) => x !== undefined).length === 1;
const oneFactorIssue = {
  path: ["code"],
  error: "Enter the 6-digit code from your authenticator app, or a recovery code, or use a passkey.",
};

/** Passing the second factor: a code from the app, one recovery code, or a passkey assertion. */
export const secondFactorSchema = z.strictObject(secondFactorFields).refine(exactlyOneFactor, oneFactorIssue);

/** Changing the second factor (turning the app off, replacing recovery codes): a fresh factor and the password. */
export const secondFactorChangeSchema = z
  .strictObject({ ...secondFactorFields, password: passwordAgainSchema })
  .refine(exactlyOneFactor, oneFactorIssue);

export type PasskeyAssertion = z.infer<typeof passkeyAssertionSchema>;
export type SecondFactorInput = z.infer<typeof secondFactorSchema>;
export type SecondFactorChangeInput = z.infer<typeof secondFactorChangeSchema>;

export const transferOwnershipSchema = z.strictObject({
  userId: z.uuid({ error: "Choose the new owner." }),
});

// ---- Web Push

/** A browser's PushSubscription as JSON (PushSubscription.toJSON()). */
export const pushSubscriptionSchema = z.object({
  endpoint: z.url({ error: "Expected the push service's URL." }).max(2048, { error: "Too long." }),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    p256dh: base64url
      .min(80, { error: "Expected a P-256 public key." })
      .max(100, { error: "Expected a P-256 public key." }),
    auth: base64url
      .min(16, { error: "Expected a 16-byte auth secret." })
      .max(32, { error: "Expected a 16-byte auth secret." }),
  }),
});

export const pushUnsubscribeSchema = z.strictObject({
  endpoint: z.url({ error: "Expected the push service's URL." }).max(2048, { error: "Too long." }),
});

/** RFC 8030 urgency: how soon the push service should wake the device. */
export type PushUrgency = "very-low" | "low" | "normal" | "high";

/** What a push message carries (encrypted for the device); the service worker shows it. */
export interface PushPayload {
  title: string;
  body: string;
  /** Where a click goes: the assignment in the field view. */
  url: string;
  /** Replaces an earlier notification about the same thing. */
  tag: string;
  urgency: PushUrgency;
  notificationId: string;
  milestoneId: string | null;
}
