// Accounts, invitations, profiles, email settings and the outbox, the second factor and sessions, and webhook
// endpoints as the API answers them.
import { z } from "zod";
import { EMAIL_CATEGORIES, EMAIL_MODES } from "../people";
import { WEBHOOK_EVENT_TYPES } from "../webhooks";
import { id, instant, role, shape } from "./common";

export const invitationSchema = shape({
  id,
  email: z.string(),
  role,
  organization: z.string().nullable(),
  projects: z.array(shape({ id, name: z.string() })),
  invitedBy: z.string().nullable(),
  sentAt: instant,
  expiresAt: instant,
  /**
   * pending: the link works; expired: resend to make a new one; inviter_inactive: whoever sent it is no longer an
   * admin, so the link stops working (a resend makes a new one in the resending admin's name).
   */
  status: z.enum(["pending", "expired", "inviter_inactive"]),
}).meta({ id: "Invitation" });
export type InvitationDto = z.infer<typeof invitationSchema>;

/** What the invitation page shows before the person sets a password. */
export const invitationPreviewSchema = shape({
  email: z.string(),
  role,
  organization: z.string().nullable(),
  expiresAt: instant,
});
export type InvitationPreviewDto = z.infer<typeof invitationPreviewSchema>;

export const profileSchema = shape({
  id,
  name: z.string(),
  email: z.string(),
  role,
  organization: z.string().nullable(),
  avatar: z.string().nullable(),
  expertise: z.array(z.string()),
}).meta({ id: "Profile" });
export type ProfileDto = z.infer<typeof profileSchema>;

/** Email per notification category: instant, daily digest or off. */
export const emailPreferencesDtoSchema = shape(
  Object.fromEntries(EMAIL_CATEGORIES.map((category) => [category, z.enum(EMAIL_MODES)])) as Record<
    (typeof EMAIL_CATEGORIES)[number],
    z.ZodEnum<{ [M in (typeof EMAIL_MODES)[number]]: M }>
  >,
);
export type EmailPreferences = z.infer<typeof emailPreferencesDtoSchema>;

export const EMAIL_KINDS = [
  "invitation",
  "password_reset",
  "email_verification",
  "password_changed",
  "signup_attempt",
  "second_factor_reset",
  "notification",
  "digest",
] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

/**
 * Why an email's text and link are not shown: its link opens an account and the admin has not passed the second
 * factor in this session, or the link was used (or replaced, or withdrawn), or it has expired.
 */
export const OUTBOX_LINK_WITHHELD = ["second_factor_required", "used", "expired"] as const;
export type OutboxLinkWithheld = (typeof OUTBOX_LINK_WITHHELD)[number];

export const outboxEmailSchema = shape({
  id,
  to: z.string(),
  subject: z.string(),
  kind: z.enum(EMAIL_KINDS),
  /** pending: not handled yet; sent: handed to the SMTP server; stored: kept here (no SMTP_URL); failed: gave up. */
  status: z.enum(["pending", "sent", "stored", "failed"]),
  createdAt: instant,
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  /**
   * Text and link only for messages kept here: a sent message's link belongs to its recipient alone. An
   * invitation's or reset's link (and the text that carries it) is shown only while it still works, and only to an
   * admin who has passed the second factor; `linkWithheld` says why it is not.
   */
  text: z.string().nullable(),
  link: z.string().nullable(),
  linkWithheld: z.enum(OUTBOX_LINK_WITHHELD).nullable(),
});
export type OutboxEmailDto = z.infer<typeof outboxEmailSchema>;

// ---------- the second factor and sessions ----------
export const secondFactorStatusSchema = shape({
  /** A second factor is set up: an authenticator app, or at least one passkey. */
  enrolled: z.boolean(),
  /** An authenticator app is set up and on. */
  totp: z.boolean(),
  /** How many passkeys (not revoked) the person has. */
  passkeys: z.number().int(),
  /** This user's role must pass the second factor before protected actions. */
  required: z.boolean(),
  /** Until when this session's second factor counts (null: not passed within the window). */
  validUntil: instant.nullable(),
  recoveryCodesLeft: z.number().int(),
});
export type SecondFactorStatusDto = z.infer<typeof secondFactorStatusSchema>;

export const totpSetupSchema = shape({
  /** The secret in base32, for typing into an app that cannot scan. */
  secret: z.string(),
  otpauthUrl: z.string(),
  /** The otpauth URL as a QR code image (data: URL, SVG). */
  qrCode: z.string(),
});
export type TotpSetupDto = z.infer<typeof totpSetupSchema>;

export const recoveryCodesSchema = shape({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodesDto = z.infer<typeof recoveryCodesSchema>;

export const sessionSchema = shape({
  id: z.string(),
  /** Browser and system read from the user agent, e.g. "Chrome on macOS". */
  device: z.string(),
  ip: z.string().nullable(),
  createdAt: instant,
  lastSeenAt: instant,
  current: z.boolean(),
});
export type SessionDto = z.infer<typeof sessionSchema>;

export const passkeySchema = shape({
  id,
  deviceName: z.string(),
  createdAt: instant,
  lastUsedAt: instant.nullable(),
  /** Synced by its provider to the person's other devices (a multi-device passkey that is backed up). */
  synced: z.boolean(),
});
export type PasskeyDto = z.infer<typeof passkeySchema>;

// ---------- webhook endpoints ----------
export const webhookEndpointSchema = shape({
  id,
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  description: z.string().nullable(),
  enabled: z.boolean(),
  /** Why it is off when Tranche turned it off (24 h of failures); null when an admin did, or when on. */
  disabledReason: z.string().nullable(),
  /** Until when the previous secret still signs beside the current one (after a rotation). */
  previousSecretExpiresAt: instant.nullable(),
  createdAt: instant,
  updatedAt: instant,
}).meta({ id: "WebhookEndpoint" });
export type WebhookEndpointDto = z.infer<typeof webhookEndpointSchema>;

/** Returned once, on creation and rotation: the only time the secret is shown. */
export const webhookEndpointWithSecretSchema = webhookEndpointSchema
  .extend({ secret: z.string() })
  .meta({ id: "WebhookEndpointWithSecret" });
export type WebhookEndpointWithSecretDto = z.infer<typeof webhookEndpointWithSecretSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const webhookAttemptSchema = shape({
  at: instant,
  /** null when no HTTP answer came (timeout, refused address, connection error). */
  statusCode: z.number().int().nullable(),
  durationMs: z.number(),
  /** The first 1 kB of the response body, or what went wrong. */
  response: z.string(),
  error: z.string().nullable(),
});
export type WebhookAttemptDto = z.infer<typeof webhookAttemptSchema>;

export const webhookDeliverySchema = shape({
  /** The `webhook-id` header: the same on every attempt and replay. */
  id,
  eventId: z.string(),
  eventType: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  createdAt: instant,
  nextAttemptAt: instant.nullable(),
  /** The body sent: `{ id, type, createdAt, data }`. */
  payload: z.unknown(),
  attempts: z.array(webhookAttemptSchema),
});
export type WebhookDeliveryDto = z.infer<typeof webhookDeliverySchema>;
