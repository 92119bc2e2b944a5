import { z } from "zod";
import { ROLES, type Role } from "./constants";
import { signUpSchema } from "./schemas";

/** How long an invitation link works, and a password reset link. */
export const INVITATION_TTL_HOURS = 72;
export const PASSWORD_RESET_TTL_MINUTES = 30;
/** How long the link that confirms a new account's email address works. */
export const EMAIL_VERIFICATION_TTL_HOURS = 72;

const email = signUpSchema.shape.email;
const password = signUpSchema.shape.password;
const name = signUpSchema.shape.name;
const token = z.string({ error: "The link is incomplete." }).min(20, { error: "The link is incomplete." }).max(200);

const organization = z
  .string()
  .trim()
  .max(160, { error: "Organization must be at most 160 characters." })
  .transform((value) => value || null);
// Optional on an invitation: left empty, a form sends "" or null (what parsing "" gives back); both mean none.
const optionalOrganization = z
  .string()
  .trim()
  .max(160, { error: "Organization must be at most 160 characters." })
  .nullish()
  .transform((value) => value || null);

export const createInvitationSchema = z.strictObject({
  email,
  role: z.enum(ROLES, { error: "Choose a role." }),
  organization: optionalOrganization,
  projectIds: z
    .array(z.uuid({ error: "Choose projects from the list." }))
    .max(50, { error: "At most 50 projects." })
    .default([]),
});
export type CreateInvitationInput = z.infer<typeof createInvitationSchema>;

export const acceptInvitationSchema = z.strictObject({ token, name, password });
export type AcceptInvitationInput = z.infer<typeof acceptInvitationSchema>;

export const forgotPasswordSchema = z.strictObject({ email });
export const verifyEmailSchema = z.strictObject({ token });
export const resetPasswordSchema = z.strictObject({ token, password });
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

export interface InvitationDto {
  id: string;
  email: string;
  role: Role;
  organization: string | null;
  projects: { id: string; name: string }[];
  invitedBy: string | null;
  sentAt: string;
  expiresAt: string;
  /** pending: the link works; expired: resend to make a new one. */
  status: "pending" | "expired";
}

/** What the invitation page shows before the person sets a password. */
export interface InvitationPreviewDto {
  email: string;
  role: Role;
  organization: string | null;
  expiresAt: string;
}

// ---------- email preferences ----------
export const EMAIL_CATEGORIES = ["verification", "releases", "projects", "account"] as const;
export type EmailCategory = (typeof EMAIL_CATEGORIES)[number];
export const EMAIL_MODES = ["instant", "digest", "off"] as const;
export type EmailMode = (typeof EMAIL_MODES)[number];

/** Releases and verification decisions matter at once; the rest can wait for the morning. */
export const EMAIL_DEFAULTS: Record<EmailCategory, EmailMode> = {
  verification: "instant",
  releases: "instant",
  projects: "digest",
  account: "digest",
};

export const EMAIL_CATEGORY_LABELS: Record<EmailCategory, { label: string; description: string }> = {
  verification: { label: "Verification", description: "Milestones approved or rejected, and verification work." },
  releases: { label: "Releases", description: "Capital instructed, settled, failed or cancelled." },
  projects: { label: "Projects", description: "Milestones added, changed, resubmitted or delayed." },
  account: { label: "Account", description: "Your role, your access and integrations." },
};
export const EMAIL_MODE_LABELS: Record<EmailMode, string> = {
  instant: "Instant",
  digest: "Daily digest",
  off: "Off",
};

export const emailPreferencesSchema = z.strictObject(
  Object.fromEntries(
    EMAIL_CATEGORIES.map((category) => [
      category,
      z.enum(EMAIL_MODES, { error: "Choose instant, daily digest or off." }),
    ]),
  ) as Record<EmailCategory, z.ZodEnum<{ instant: "instant"; digest: "digest"; off: "off" }>>,
);
export type EmailPreferences = Record<EmailCategory, EmailMode>;

// ---------- profile ----------
export const updateProfileSchema = z.strictObject({
  name,
  organization,
  /** Verifiers only: what they are qualified to check. */
  expertise: z
    .array(
      z
        .string()
        .trim()
        .min(1, { error: "An area of expertise cannot be empty." })
        .max(60, { error: "Each area of expertise must be at most 60 characters." }),
    )
    .max(12, { error: "At most 12 areas of expertise." })
    .optional(),
});
export type UpdateProfileInput = z.infer<typeof updateProfileSchema>;

export interface ProfileDto {
  id: string;
  name: string;
  email: string;
  role: Role;
  organization: string | null;
  avatar: string | null;
  expertise: string[];
}

export const AVATAR_MAX_BYTES = 200 * 1024;
export const AVATAR_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;

// ---------- email outbox (admins) ----------
export type EmailKind =
  | "invitation"
  | "password_reset"
  | "email_verification"
  | "password_changed"
  | "signup_attempt"
  | "notification"
  | "digest";

/**
 * Why an email's text and link are not shown: its link opens an account and the admin has not passed the second
 * factor in this session, or the link was used (or replaced, or withdrawn), or it has expired.
 */
export type OutboxLinkWithheld = "second_factor_required" | "used" | "expired";

export interface OutboxEmailDto {
  id: string;
  to: string;
  subject: string;
  kind: EmailKind;
  /** pending: not handled yet; sent: handed to the SMTP server; stored: kept here (no SMTP_URL); failed: gave up. */
  status: "pending" | "sent" | "stored" | "failed";
  createdAt: string;
  attempts: number;
  lastError: string | null;
  /**
   * Text and link only for messages kept here: a sent message's link belongs to its recipient alone. An
   * invitation's or reset's link (and the text that carries it) is shown only while it still works, and only to an
   * admin who has passed the second factor; `linkWithheld` says why it is not.
   */
  text: string | null;
  link: string | null;
  linkWithheld: OutboxLinkWithheld | null;
}
