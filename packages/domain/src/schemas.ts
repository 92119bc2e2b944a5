import { z } from "zod";
import {
  API_SCOPES,
  CHECKLIST_ITEMS,
  CURRENCIES,
  MAX_CAPITAL,
  MILESTONE_STATUSES,
  PASSWORD_MAX,
  PASSWORD_MIN,
  PROJECT_STATUSES,
  RELEASE_STATUSES,
  ROLES,
} from "./constants";

/** A real calendar day (no 2025-02-30, no year 0): the database rejects anything else with an error. */
function isCalendarDate(value: string): boolean {
  const [year, month, day] = value.split("-").map(Number);
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  return year >= 1 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "Use a date in the form YYYY-MM-DD." })
  .refine(isCalendarDate, { error: "Use a date in the form YYYY-MM-DD." });
/**
 * Line breaks and other control characters, lone surrogates, and the marks that reorder how text reads (bidi
 * embeddings, overrides and isolates: "Plant\u202E00.000,1$" shows as "Plant$1,000.00"). A name or title is one
 * line of visible text: it stands in email subjects, push messages, the release certificate, /verify and exports.
 */
const NOT_ONE_LINE = /[\p{Cc}\p{Cs}\u202a-\u202e\u2066-\u2069]/u;
/** Whether `value` is one line of visible text (no line break, control or text-direction character). */
export const isOneLine = (value: string) => !NOT_ONE_LINE.test(value);
/** The message for a `label` that is not one line of visible text. */
export const oneLineMessage = (label: string) =>
  `${label} must be one line of visible text (no line breaks, control or text-direction characters).`;

const email = z
  .string({ error: "Email is required." })
  .trim()
  .min(1, { error: "Email is required." })
  .max(254, { error: "Email must be at most 254 characters." })
  .pipe(z.email({ error: "Enter a valid email address." }))
  .transform((value) => value.toLowerCase());

// ---------- auth ----------
export const signUpSchema = z.strictObject({
  name: z
    .string({ error: "Full name is required." })
    .trim()
    .min(1, { error: "Full name is required." })
    .max(120, { error: "Full name must be at most 120 characters." })
    .refine(isOneLine, { error: oneLineMessage("Full name") }),
  email,
  password: z
    .string({ error: "Password is required." })
    .min(PASSWORD_MIN, { error: `Password must be at least ${PASSWORD_MIN} characters.` })
    .max(PASSWORD_MAX, { error: `Password must be at most ${PASSWORD_MAX} characters.` }),
});
export type SignUpInput = z.infer<typeof signUpSchema>;

export const signInSchema = z.strictObject({
  email,
  password: z
    .string({ error: "Password is required." })
    .min(1, { error: "Password is required." })
    .max(1024, { error: "Password must be at most 1024 characters." }),
});
export type SignInInput = z.infer<typeof signInSchema>;

export const changePasswordSchema = z.strictObject({
  currentPassword: z.string({ error: "Current password is required." }).min(1).max(1024),
  newPassword: signUpSchema.shape.password,
});

// ---------- positions ----------
/** Decimal degrees, WGS 84 (what phones and maps give). */
export const latitude = (field: string) =>
  z
    .number({ error: `${field} must be a number of degrees from -90 to 90.` })
    .min(-90, { error: `${field} must be from -90 to 90 degrees.` })
    .max(90, { error: `${field} must be from -90 to 90 degrees.` });
export const longitude = (field: string) =>
  z
    .number({ error: `${field} must be a number of degrees from -180 to 180.` })
    .min(-180, { error: `${field} must be from -180 to 180 degrees.` })
    .max(180, { error: `${field} must be from -180 to 180 degrees.` });

// ---------- money ----------
/**
 * An amount of money as the API takes it (docs/domain.md "Money"): a JSON number from `min` to 100 billion, to the
 * cent, refused rather than rounded. Each check stops the rest, so an input gets the message of the rule it breaks.
 */
export const moneyAmount = (field: string, min: number) => {
  const notPositive = `${field} must be greater than zero.`;
  const tooLarge = `${field} must be at most 100,000,000,000.`;
  const notANumber = (input: unknown) => {
    if (input === undefined) return `${field} is required.`;
    // JSON reads 1e309 as Infinity: a number, only out of range.
    if (input === Number.POSITIVE_INFINITY) return tooLarge;
    if (input === Number.NEGATIVE_INFINITY) return notPositive;
    return `${field} must be a number.`;
  };
  return (
    z
      .number({ error: (issue) => notANumber(issue.input) })
      .positive({ error: notPositive, abort: true })
      .min(min, { error: `${field} must be at least ${min}.`, abort: true })
      .max(MAX_CAPITAL, { error: tooLarge, abort: true })
      // Refused, never rounded: 12.345 would be stored as 12.35.
      .multipleOf(0.01, { error: `${field} may have at most two decimals.` })
  );
};

// ---------- projects ----------
const projectFields = {
  name: z
    .string({ error: "Name is required." })
    .trim()
    .min(1, { error: "Name is required." })
    .max(200, { error: "Name must be at most 200 characters." })
    .refine(isOneLine, { error: oneLineMessage("Name") }),
  description: z
    .string({ error: "Description is required." })
    .trim()
    .min(1, { error: "Description is required." })
    .max(5000, { error: "Description must be at most 5000 characters." }),
  totalCapital: moneyAmount("Total capital", 0.01),
  location: z
    .string({ error: "Location is required." })
    .trim()
    .min(1, { error: "Location is required." })
    .max(200, { error: "Location must be at most 200 characters." })
    .refine(isOneLine, { error: oneLineMessage("Location") }),
  startDate: isoDate.nullable().optional(),
  endDate: isoDate.nullable().optional(),
  currency: z.enum(CURRENCIES, { error: "Currency must be one of USD, EUR, GBP." }).default("USD"),
  siteLatitude: latitude("Site latitude").nullable().optional(),
  siteLongitude: longitude("Site longitude").nullable().optional(),
};

/** The site's coordinates go together: both or neither (a PATCH may move one of a stored pair, checked by the server). */
export const SITE_PAIR_MESSAGE = "Give the site's latitude and longitude together, or neither.";
const bothOrNeither = (value: { siteLatitude?: number | null; siteLongitude?: number | null }) =>
  (value.siteLatitude == null) === (value.siteLongitude == null);
/** The issue names the coordinate that is missing. */
const siteIssueOf = (value: { siteLatitude?: number | null }) => ({
  message: SITE_PAIR_MESSAGE,
  path: [value.siteLatitude == null ? "siteLatitude" : "siteLongitude"],
});

const datesInOrder = (value: { startDate?: string | null; endDate?: string | null }) =>
  !value.startDate || !value.endDate || value.endDate >= value.startDate;
const datesIssue = { error: "End date must be on or after the start date.", path: ["endDate"] };

export const createProjectSchema = z
  .strictObject(projectFields)
  .refine(datesInOrder, datesIssue)
  .check((ctx) => {
    if (!bothOrNeither(ctx.value)) ctx.issues.push({ code: "custom", input: ctx.value, ...siteIssueOf(ctx.value) });
  });
export type CreateProjectInput = z.input<typeof createProjectSchema>;

export const updateProjectSchema = z
  .strictObject({
    ...projectFields,
    currency: z.enum(CURRENCIES, { error: "Currency must be one of USD, EUR, GBP." }),
  })
  .partial()
  .refine(datesInOrder, datesIssue)
  .check((ctx) => {
    // Sent together, they must agree; one alone moves that coordinate of the stored pair.
    const both = ctx.value.siteLatitude !== undefined && ctx.value.siteLongitude !== undefined;
    if (both && !bothOrNeither(ctx.value))
      ctx.issues.push({ code: "custom", input: ctx.value, ...siteIssueOf(ctx.value) });
  });
export type UpdateProjectInput = z.input<typeof updateProjectSchema>;

// ---------- lists: keyset pagination (limit default 25, max 100; an opaque cursor from the previous page) ----------
export const LIST_PAGE_SIZE = 25;
/**
 * A whole number in a query string, written in digits (a leading minus allowed, for the range's message): `0x10`,
 * `1e2`, ` 5` or `Infinity` are refused, never read as some number the caller did not write.
 */
export const queryNumber = (notANumber: string, notWhole = notANumber) =>
  z.string({ error: notANumber }).transform((text, ctx) => {
    if (/^-?\d{1,16}$/.test(text)) return Number(text);
    ctx.issues.push({ code: "custom", message: /^-?\d*\.\d+$/.test(text) ? notWhole : notANumber, input: text });
    return z.NEVER;
  });
/** The `limit` of a paginated list: 1 to 100 items a page, `fallback` when not given. */
export const pageLimit = (fallback: number) =>
  queryNumber("Limit must be a number.", "Limit must be a whole number.")
    .pipe(
      z
        .number()
        .min(1, { error: "Limit must be between 1 and 100." })
        .max(100, { error: "Limit must be between 1 and 100." }),
    )
    .default(fallback);
export const listLimit = pageLimit(LIST_PAGE_SIZE);
export const listCursor = z
  .string()
  .max(2000, { error: "Cursor is not valid." })
  .regex(/^[A-Za-z0-9_-]+$/, { error: "Cursor is not valid." })
  .optional();
const searchTerm = z.string().trim().max(200, { error: "Search term must be at most 200 characters." }).optional();
const sortOf = <const T extends readonly [string, ...string[]]>(sorts: T) =>
  z.enum(sorts, { error: `Sort must be one of ${sorts.join(", ")}.` }).default(sorts[0]);

export const PROJECT_SORTS = ["newest", "name", "next_due", "activity"] as const;
export type ProjectSort = (typeof PROJECT_SORTS)[number];
export const projectListQuerySchema = z.strictObject({
  status: z.enum(PROJECT_STATUSES, { error: "Unknown project status." }).optional(),
  /** The header search: matches name, description or location, case-insensitively. */
  q: searchTerm,
  sort: sortOf(PROJECT_SORTS),
  limit: listLimit,
  cursor: listCursor,
});

/** The CSV download of the project list: every project its filters find, in the list's sort (no page). */
export const projectExportQuerySchema = projectListQuerySchema.omit({ limit: true, cursor: true });

/** The status tabs' counts of the project list: its search, whatever the tab, sort or page. */
export const projectCountsQuerySchema = projectListQuerySchema.pick({ q: true });

export const memberSchema = z.strictObject({
  userId: z.uuid({ error: "Choose a user." }),
  role: z.enum(["investor", "verifier"], { error: "Role must be investor or verifier." }),
});

export const leadInvestorSchema = z.strictObject({ userId: z.uuid({ error: "Choose an investor." }) });

// ---------- milestones (the form's messages, docs/domain.md "Forms and messages") ----------
const milestoneFields = {
  title: z
    .string({ error: "Title must be at least 2 characters." })
    .trim()
    .min(2, { error: "Title must be at least 2 characters." })
    .max(200, { error: "Title must be at most 200 characters." })
    .refine(isOneLine, { error: oneLineMessage("Title") }),
  description: z
    .string({ error: "Description must be at least 10 characters." })
    .trim()
    .min(10, { error: "Description must be at least 10 characters." })
    .max(5000, { error: "Description must be at most 5000 characters." }),
  dueDate: z.string({ error: "Due date is required." }).min(1, { error: "Due date is required." }).pipe(isoDate),
  capitalAmount: moneyAmount("Capital amount", 1),
  status: z.enum(MILESTONE_STATUSES, {
    // Nothing chosen (the form's empty choice) is missing; anything else is not a status.
    error: (issue) =>
      issue.input === undefined || issue.input === "" ? "Status is required." : "Unknown milestone status.",
  }),
};

export const createMilestoneSchema = z.strictObject({
  title: milestoneFields.title,
  description: milestoneFields.description,
  dueDate: milestoneFields.dueDate,
  capitalAmount: milestoneFields.capitalAmount,
});
export type CreateMilestoneInput = z.infer<typeof createMilestoneSchema>;

export const updateMilestoneSchema = z.strictObject(milestoneFields).partial();
export type UpdateMilestoneInput = z.infer<typeof updateMilestoneSchema>;

/** The form shares the field rules; the status is only sent when editing. */
export const milestoneFormSchema = z.object(milestoneFields);
export type MilestoneFormValues = z.infer<typeof milestoneFormSchema>;

export const MILESTONE_SORTS = ["due", "newest", "amount"] as const;
export type MilestoneSort = (typeof MILESTONE_SORTS)[number];
export const milestoneListQuerySchema = z.strictObject({
  status: z.enum(MILESTONE_STATUSES, { error: "Unknown milestone status." }).optional(),
  mine: z.enum(["true", "false"]).optional(),
  assigned: z.enum(["true", "false"]).optional(),
  dueBefore: isoDate.optional(),
  projectId: z.uuid({ error: "projectId must be a project id." }).optional(),
  /** Matches the milestone's title, case-insensitively. */
  q: searchTerm,
  sort: sortOf(MILESTONE_SORTS),
  limit: listLimit,
  cursor: listCursor,
});

/** The CSV download of the milestone list: every milestone its filters find, in the list's sort (no page). */
export const milestoneExportQuerySchema = milestoneListQuerySchema.omit({ limit: true, cursor: true });

/** The status tabs' counts of the milestone list: its other filters and search, whatever the tab, sort or page. */
export const milestoneCountsQuerySchema = milestoneListQuerySchema.omit({
  status: true,
  sort: true,
  limit: true,
  cursor: true,
});

// ---------- verification ----------
const checklistShape = Object.fromEntries(
  CHECKLIST_ITEMS.map((item) => [
    item.key,
    z.boolean({
      error: (issue) =>
        issue.input === undefined ? `"${item.label}" is required.` : `"${item.label}" must be true or false.`,
    }),
  ]),
) as Record<(typeof CHECKLIST_ITEMS)[number]["key"], z.ZodBoolean>;
export const checklistSchema = z.strictObject(checklistShape);

/**
 * What the decider saw when they acted, sent by a client that may act late (the field app's offline queue, a page
 * left open): the milestone's verification round, the release policy's version, the milestone's evidence version
 * (a file added or removed moves it on) and, for an approval or a countersignature, the amount open (an earlier
 * release cancelled gives its amount back). When any has moved on, the server refuses the action with 409
 * `stale_round` instead of applying it to a milestone the decider has not seen.
 */
export const seenStateFields = {
  round: z
    .number({ error: "Round must be a whole number of at least 1." })
    .int({ error: "Round must be a whole number of at least 1." })
    .min(1, { error: "Round must be a whole number of at least 1." })
    .max(1_000_000, { error: "Round must be a whole number of at least 1." })
    .optional(),
  policyVersion: z
    .number({ error: "Policy version must be a whole number." })
    .int({ error: "Policy version must be a whole number." })
    .min(0, { error: "Policy version must be a whole number." })
    .max(1_000_000, { error: "Policy version must be a whole number." })
    .optional(),
  evidenceVersion: z
    .number({ error: "Evidence version must be a whole number." })
    .int({ error: "Evidence version must be a whole number." })
    .min(0, { error: "Evidence version must be a whole number." })
    .max(1_000_000_000, { error: "Evidence version must be a whole number." })
    .optional(),
  openAmount: z
    .number({ error: "Open amount must be an amount of money." })
    .min(0, { error: "Open amount must be an amount of money." })
    .max(MAX_CAPITAL, { error: "Open amount must be an amount of money." })
    .multipleOf(0.01, { error: "Open amount may have at most two decimals." })
    .optional(),
};
export type SeenState = { round?: number; policyVersion?: number; evidenceVersion?: number; openAmount?: number };

export const CHECKLIST_NOTE_MAX = 2000;
const checklistNote = z
  .string({ error: "A note must be text." })
  .trim()
  .max(CHECKLIST_NOTE_MAX, { error: `A note must be at most ${CHECKLIST_NOTE_MAX} characters.` });
/** A note per checklist item (what was seen on site); an empty note removes it. */
export const checklistNotesSchema = z.strictObject(
  Object.fromEntries(CHECKLIST_ITEMS.map((item) => [item.key, checklistNote.optional()])) as Record<
    (typeof CHECKLIST_ITEMS)[number]["key"],
    z.ZodOptional<typeof checklistNote>
  >,
);
/** PUT /milestones/:id/checklist: the six items, optionally a note per item and the state the verifier saw. */
export const checklistUpdateSchema = z.strictObject({
  ...checklistShape,
  notes: checklistNotesSchema.optional(),
  ...seenStateFields,
});

export const decisionSchema = z.strictObject({
  comments: z.string().trim().max(5000, { error: "Comments must be at most 5000 characters." }).optional(),
});
/** An investor's countersignature: a comment, and what it was made on (a release it did not see is refused). */
export const countersignSchema = z.strictObject({ ...decisionSchema.shape, ...seenStateFields });
/** Approve, optionally only a share (percent) of the open amount: a partial approval needs a reason. */
export const approveSchema = z
  .strictObject({
    comments: decisionSchema.shape.comments,
    share: z
      .number({ error: "Share must be a percentage from 1 to 100." })
      .min(1, { error: "Share must be a percentage from 1 to 100." })
      .max(100, { error: "Share must be a percentage from 1 to 100." })
      .multipleOf(0.01, { error: "Share may have at most two decimals." })
      .optional(),
    ...seenStateFields,
  })
  .refine((d) => d.share === undefined || d.share === 100 || (d.comments ?? "").length >= 10, {
    error: "Give a reason of at least 10 characters for approving only part of the amount.",
    path: ["comments"],
  });
export const rejectSchema = z.strictObject({
  comments: z
    .string({ error: "A reason for the rejection is required." })
    .trim()
    .min(1, { error: "A reason for the rejection is required." })
    .max(5000, { error: "Comments must be at most 5000 characters." }),
  ...seenStateFields,
});
export const disputeSchema = z.strictObject({
  statement: z
    .string({ error: "Say why the rejection should be reviewed (at least 10 characters)." })
    .trim()
    .min(10, { error: "Say why the rejection should be reviewed (at least 10 characters)." })
    .max(5000, { error: "The statement must be at most 5000 characters." }),
});
export const assignDisputeSchema = z.strictObject({ verifierId: z.uuid({ error: "Choose a verifier." }) });
export const reportSchema = z.strictObject({
  comments: z.string().trim().max(5000, { error: "Comments must be at most 5000 characters." }).optional(),
});

// ---------- evidence captures ----------
/**
 * One file's capture tags (the `captures` field of an evidence upload): the SHA-256 the device computed, where it
 * was (decimal degrees; accuracy in metres) and when. A file uploaded without tags has `null` in its place.
 */
export const captureSchema = z.strictObject({
  sha256: z
    .string({ error: "sha256 must be the file's SHA-256 in 64 hexadecimal characters." })
    .regex(/^[0-9a-fA-F]{64}$/, { error: "sha256 must be the file's SHA-256 in 64 hexadecimal characters." })
    .transform((hex) => hex.toLowerCase()),
  latitude: latitude("Latitude"),
  longitude: longitude("Longitude"),
  accuracy: z
    .number({ error: "Accuracy must be a number of metres." })
    .min(0, { error: "Accuracy must be a number of metres." })
    .max(20_000_000, { error: "Accuracy must be a number of metres." })
    .nullable()
    .optional(),
  capturedAt: z.iso.datetime({ offset: true, error: "capturedAt must be a date and time (ISO 8601)." }),
});
export type CaptureInput = z.input<typeof captureSchema>;
export const capturesSchema = z.array(captureSchema.nullable(), { error: "captures must be a JSON array." }).max(20, {
  error: "captures may have at most 20 entries.",
});

// ---------- users ----------
export const USER_SORTS = ["name", "newest", "email"] as const;
export type UserSort = (typeof USER_SORTS)[number];
export const userListQuerySchema = z.strictObject({
  role: z.enum(ROLES, { error: "Role must be investor, project_owner, verifier or admin." }).optional(),
  /** Matches name or email, case-insensitively. */
  q: searchTerm,
  sort: sortOf(USER_SORTS),
  limit: listLimit,
  cursor: listCursor,
});

export const VERIFIER_SORTS = ["name", "completed", "rating"] as const;
export type VerifierSort = (typeof VERIFIER_SORTS)[number];
export const verifierListQuerySchema = z.strictObject({
  /** Matches name, email or organization, case-insensitively. */
  q: searchTerm,
  sort: sortOf(VERIFIER_SORTS),
  limit: listLimit,
  cursor: listCursor,
});

/** GET /api/verifications/pending: the verifier's pending queue, earliest due first, a page at a time. */
export const verifierPendingQuerySchema = z.strictObject({
  /** Matches title or description, case-insensitively. */
  q: searchTerm,
  limit: listLimit,
  cursor: listCursor,
});

export const REPORT_SORTS = ["newest", "oldest"] as const;
export type ReportSort = (typeof REPORT_SORTS)[number];
export const reportListQuerySchema = z.strictObject({
  status: z.enum(["verified", "rejected"], { error: "Status must be verified or rejected." }).optional(),
  sort: sortOf(REPORT_SORTS),
  projectId: z.uuid({ error: "projectId must be a project id." }).optional(),
  limit: listLimit,
  cursor: listCursor,
});

/**
 * An admin changes a person's role, or sets the organization release rules compare for them (null clears it):
 * a verified organization, never self-declared.
 */
export const updateUserSchema = z
  .strictObject({
    role: z.enum(ROLES, { error: "Role must be investor, project_owner, verifier or admin." }).optional(),
    verifiedOrganization: z
      .string({ error: "Organization must be text." })
      .trim()
      .min(2, { error: "Organization must be at least 2 characters." })
      .max(200, { error: "Organization must be at most 200 characters." })
      .refine(isOneLine, { error: oneLineMessage("Organization") })
      .nullable()
      .optional(),
  })
  .refine((u) => u.role !== undefined || u.verifiedOrganization !== undefined, {
    error: "Send a role or a verified organization.",
    path: ["role"],
  });

// ---------- public requests ----------
export const PUBLIC_REQUEST_KINDS = ["demo", "early_access", "verifier_partner"] as const;
export const publicRequestSchema = z.strictObject({
  kind: z.enum(PUBLIC_REQUEST_KINDS, { error: "Unknown request type." }),
  email,
  name: z
    .string()
    .trim()
    .max(120, { error: "Name must be at most 120 characters." })
    .refine(isOneLine, { error: oneLineMessage("Name") })
    .optional(),
  organization: z
    .string()
    .trim()
    .max(200, { error: "Organization must be at most 200 characters." })
    .refine(isOneLine, { error: oneLineMessage("Organization") })
    .optional(),
  message: z.string().trim().max(2000, { error: "Message must be at most 2000 characters." }).optional(),
  source: z
    .string({ error: "Source must be text." })
    .trim()
    .max(200, { error: "Source must be at most 200 characters." })
    .optional(),
});
export type PublicRequestInput = z.input<typeof publicRequestSchema>;

// ---------- releases ----------
const uuid = (what: string) =>
  z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, {
    error: `${what} must be an id.`,
  });
const reason = (what: string) =>
  z
    .string({ error: `A reason for the ${what} is required.` })
    .trim()
    .min(1, { error: `A reason for the ${what} is required.` })
    .max(2000, { error: "Reason must be at most 2000 characters." });

/**
 * The instruction a custodian's report answers (its `release.instructed` event's instructionId). Optional; when sent,
 * a report of an instruction the release has since replaced (a late answer to one that failed) is refused with 409.
 */
const reportedInstruction = z
  .uuid({ error: "instructionId must be the instructionId of the release.instructed event being answered." })
  .optional();

export const settleReleaseSchema = z.strictObject({
  instructionId: reportedInstruction,
  reference: z
    .string({ error: "The custodian's payment reference is required." })
    .trim()
    .min(1, { error: "The custodian's payment reference is required." })
    .max(200, { error: "Reference must be at most 200 characters." }),
  settledAt: z.iso
    .datetime({ offset: true, error: "settledAt must be an ISO 8601 date-time, e.g. 2026-01-31T12:00:00Z." })
    .refine((value) => Date.parse(value) <= Date.now() + 5 * 60_000, {
      error: "settledAt cannot be in the future.",
    })
    .optional(),
});
export const failReleaseSchema = z.strictObject({ instructionId: reportedInstruction, reason: reason("failure") });
export const cancelReleaseSchema = z.strictObject({ reason: reason("cancellation") });

export const releaseListQuerySchema = z.strictObject({
  status: z.enum(RELEASE_STATUSES, { error: "Status must be instructed, settled, failed or cancelled." }).optional(),
  projectId: uuid("projectId").optional(),
  limit: listLimit,
  cursor: listCursor,
});

/** The CSV download of the release list: every release its filters find (no page). */
export const releaseExportQuerySchema = releaseListQuerySchema.omit({ limit: true, cursor: true });

// ---------- API tokens ----------
export const createApiTokenSchema = z.strictObject({
  name: z
    .string({ error: "Name is required." })
    .trim()
    .min(1, { error: "Name is required." })
    .max(100, { error: "Name must be at most 100 characters." })
    .refine(isOneLine, { error: oneLineMessage("Name") }),
  scopes: z
    .array(z.enum(API_SCOPES, { error: "Scopes must be releases:read, releases:write or projects:read." }), {
      error: "Choose at least one scope.",
    })
    .min(1, { error: "Choose at least one scope." })
    .max(API_SCOPES.length)
    .transform((scopes) => [...new Set(scopes)]),
});
export type CreateApiTokenInput = z.input<typeof createApiTokenSchema>;

/** Turns zod issues into { field: message } (first message per field). */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  // A Map, then own properties: a field named "constructor" or "__proto__" must not meet Object.prototype's.
  const out = new Map<string, string>();
  const add = (key: string, message: string) => {
    if (!out.has(key)) out.set(key, message);
  };
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const name of issue.keys) add([...issue.path, name].join("."), "Unknown field.");
    } else add(issue.path.length ? issue.path.join(".") : "_", issue.message);
  }
  return Object.fromEntries(out);
}
