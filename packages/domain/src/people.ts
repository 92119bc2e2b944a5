import { z } from "zod";
import { ROLES } from "./constants";
import { isOneLine, oneLineMessage, signUpSchema } from "./schemas";

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
  .refine(isOneLine, { error: oneLineMessage("Organization") })
  .transform((value) => value || null);
// Optional on an invitation: left empty, a form sends "" or null (what parsing "" gives back); both mean none.
const optionalOrganization = z
  .string()
  .trim()
  .max(160, { error: "Organization must be at most 160 characters." })
  .refine(isOneLine, { error: oneLineMessage("Organization") })
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

export const AVATAR_MAX_BYTES = 200 * 1024;
export const AVATAR_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
