import {
  approveSchema,
  assignDisputeSchema,
  CHECKLIST_ITEMS,
  cancelReleaseSchema,
  changePasswordSchema,
  checklistUpdateSchema,
  createApiTokenSchema,
  createMilestoneSchema,
  createProjectSchema,
  createWebhookEndpointSchema,
  decisionSchema,
  disputeSchema,
  enableTotpSchema,
  failReleaseSchema,
  leadInvestorSchema,
  memberSchema,
  milestoneCountsQuerySchema,
  milestoneListQuerySchema,
  projectCountsQuerySchema,
  projectListQuerySchema,
  publicRequestSchema,
  rejectSchema,
  releasePolicySchema,
  reportListQuerySchema,
  reportSchema,
  secondFactorSchema,
  settleReleaseSchema,
  signInSchema,
  signUpSchema,
  transferOwnershipSchema,
  updateMilestoneSchema,
  updateProjectSchema,
  updateUserSchema,
  updateWebhookEndpointSchema,
  userListQuerySchema,
  verifierListQuerySchema,
} from "@tranche/domain";
import type { z } from "zod";
import { auditExportQuerySchema, auditQuerySchema, checkpointQuerySchema } from "../routes/audit";
import { certificateQuerySchema } from "../routes/certificates";
import { invitationLookupSchema } from "../routes/invitations";
import { removeMemberQuery } from "../routes/projects";
import { releaseListQuery } from "../routes/releases";
import { deliveriesQuerySchema } from "../routes/webhooks";
import { listNotificationsQuery } from "../services/notifications/list";
import { listPublicRequestsQuery } from "../services/public-requests/list";
import { searchQuery } from "../services/search/search";
import { completedQuery } from "../services/verification/queue";
import { deviceOperations } from "./device-operations";
import { peopleOperations } from "./people-operations";

/** One documented route. Schemas are the ones the route validates with, so the document cannot drift. */
export interface Operation {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** OpenAPI form: /api/projects/{id}. */
  path: string;
  id: string;
  tag: string;
  summary: string;
  description?: string;
  /** public: no sign-in; session: a signed-in person (the summary says which roles). */
  auth: "public" | "session";
  /** Token scopes that also allow this route with `Authorization: Bearer`. */
  scopes?: string[];
  body?: z.ZodType;
  bodyOptional?: boolean;
  bodyExample?: unknown;
  multipart?: boolean;
  query?: z.ZodType;
  created?: boolean;
  status?: number;
  response: string;
  produces?: string;
  example?: unknown;
  /** Statuses beyond those every route of its kind may answer (400, 401, 404, 503 are added as they apply). */
  errors?: number[];
}

const ID = "0b9e4c2a-5d7f-4e1b-9a3c-6f8d2e4b7a10";
const user = {
  id: ID,
  name: "Sarah Chen",
  email: "investor@tranche.app",
  role: "investor",
  organization: "Horizon Capital",
  avatar: null,
  emailVerifiedAt: "2026-05-04T09:00:00.000Z",
};
const project = {
  id: ID,
  name: "Mojave Solar Farm Phase II",
  status: "active",
  totalCapital: "12500000.00",
  currency: "USD",
};
const milestone = {
  id: ID,
  projectId: ID,
  title: "Foundations poured",
  status: "pending_verification",
  capitalAmount: "2500000.00",
  dueDate: "2026-12-15",
};

const release = {
  id: ID,
  instructionId: "5d2f8a41-7c3e-4b9a-8e61-2f0c9d4b7a35",
  status: "instructed",
  amount: 2500000,
  currency: "USD",
  milestone: { id: ID, name: "Foundations poured" },
  project: { id: ID, name: "Mojave Solar Farm Phase II" },
  approvedAt: "2026-12-14T15:02:11.000Z",
  instructedAt: "2026-12-14T15:02:11.000Z",
  settlement: null,
  failure: null,
  cancellation: null,
  updatedAt: "2026-12-14T15:02:11.000Z",
  permissions: { canReinstruct: false, canCancel: false },
};

const webhookEndpoint = {
  id: ID,
  url: "https://custodian.example/tranche/webhooks",
  events: ["release.instructed", "release.settled"],
  description: "Escrow agent",
  enabled: true,
  disabledReason: null,
  previousSecretExpiresAt: null,
  createdAt: "2026-05-04T09:00:00.000Z",
  updatedAt: "2026-05-04T09:00:00.000Z",
};

const get = (path: string, rest: Omit<Operation, "method" | "path" | "auth"> & Partial<Pick<Operation, "auth">>) =>
  ({ method: "get", path, auth: "session", ...rest }) as Operation;
const write = (
  method: "post" | "put" | "patch" | "delete",
  path: string,
  rest: Omit<Operation, "method" | "path" | "auth"> & Partial<Pick<Operation, "auth">>,
) => ({ method, path, auth: "session", errors: [403], ...rest }) as Operation;

const SECOND_FACTOR_NOTE =
  "Roles in MFA_REQUIRED_ROLES must have passed the second factor in this session within 12 hours: " +
  "else 403 with code `mfa_required` (details.enrolled tells whether to ask for a code or to set one up).";

/** A Security write whose body carries a code from the app (or a recovery code). */
const codeWrite = (path: string, rest: Omit<Operation, "method" | "path" | "auth" | "tag">) =>
  write("post", path, {
    tag: "Security",
    body: secondFactorSchema,
    bodyExample: { code: "123456" },
    errors: [403, 429],
    ...rest,
  });

/** The caller's own second factor and sessions (Account → Security). */
function securityOperations(): Operation[] {
  return [
    get("/api/auth/mfa", {
      id: "getSecondFactor",
      tag: "Security",
      summary: "Whether a second factor is set up and required, and until when this session's counts",
      response: "The second factor's status.",
      example: { enrolled: true, required: true, validUntil: "2026-12-14T23:00:00.000Z", recoveryCodesLeft: 9 },
    }),
    write("post", "/api/auth/mfa/totp/setup", {
      id: "startTotpSetup",
      tag: "Security",
      summary: "Start setting up an authenticator app: a new secret and its QR code",
      response: "The secret (base32), its otpauth URL and a QR code image; not on until a code is confirmed.",
      example: {
        secret: "JBSWY3DPEHPK3PXP",
        otpauthUrl: "otpauth://totp/Tranche:…",
        qrCode: "data:image/svg+xml;base64,…",
      },
      errors: [409],
    }),
    codeWrite("/api/auth/mfa/totp/enable", {
      id: "enableTotp",
      summary: "Confirm the first code from the app: turns the second factor on",
      body: enableTotpSchema,
      response: "Ten single-use recovery codes, shown this once; this session has passed the second factor.",
      example: { recoveryCodes: ["abcde-fghij"] },
      errors: [409, 429],
    }),
    codeWrite("/api/auth/mfa/verify", {
      id: "verifySecondFactor",
      summary: "Pass the second factor in this session (a code from the app, or a recovery code, used up)",
      description: "Wrong codes are counted per (account, IP); another IP's failures never block a right code.",
      response: "The second factor's status, valid for 12 hours.",
      example: { enrolled: true, required: true, validUntil: "2026-12-14T23:00:00.000Z", recoveryCodesLeft: 10 },
    }),
    codeWrite("/api/auth/mfa/recovery-codes", {
      id: "replaceRecoveryCodes",
      summary: "Replace the recovery codes (the old ones stop working); needs a fresh code",
      response: "Ten new recovery codes, shown this once.",
      example: { recoveryCodes: ["abcde-fghij"] },
    }),
    codeWrite("/api/auth/mfa/totp/disable", {
      id: "disableTotp",
      summary: "Turn the second factor off; needs a fresh code",
      status: 204,
      response: "Turned off; recovery codes are deleted.",
    }),
    get("/api/auth/sessions", {
      id: "listSessions",
      tag: "Security",
      summary: "The caller's signed-in sessions: device, IP, last seen",
      response: "The sessions, most recently used first.",
      example: {
        items: [
          {
            id: "9f86d081884c7d659a2feaa0c55ad015",
            device: "Chrome on macOS",
            ip: "198.51.100.7",
            createdAt: "2026-12-14T09:00:00.000Z",
            lastSeenAt: "2026-12-14T11:00:00.000Z",
            current: true,
          },
        ],
      },
    }),
    write("post", "/api/auth/sessions/sign-out-others", {
      id: "signOutOtherSessions",
      tag: "Security",
      summary: "Sign out every session but this one",
      response: "How many sessions were signed out.",
      example: { signedOut: 2 },
      errors: [],
    }),
    write("delete", "/api/auth/sessions/{id}", {
      id: "signOutSession",
      tag: "Security",
      summary: "Sign out one of the caller's sessions (the current one clears the cookie)",
      status: 204,
      response: "Signed out.",
      errors: [],
    }),
  ];
}

/** Every /api route the app registers (a test holds the two lists equal). */
export function operations(): Operation[] {
  return [
    // ---- health and session
    get("/api/health", {
      id: "getHealth",
      tag: "Health",
      auth: "public",
      summary: "Whether the database is reachable and realtime is listening",
      response: "Healthy (503 when the database is unreachable).",
      example: { status: "ok", database: { kind: "postgres", reachable: true }, realtime: "listening" },
    }),
    write("post", "/api/auth/sign-up", {
      id: "signUp",
      tag: "Auth",
      auth: "public",
      summary: "Create a project owner account and sign in",
      body: signUpSchema,
      bodyExample: { name: "Alex Rivera", email: "alex@example.com", password: "a-long-passphrase-9" },
      created: true,
      response: "The new user; the session cookie is set.",
      example: { ...user, role: "project_owner" },
      errors: [409, 422, 429],
    }),
    write("post", "/api/auth/sign-in", {
      id: "signIn",
      tag: "Auth",
      auth: "public",
      summary: "Sign in with email and password",
      body: signInSchema,
      bodyExample: { email: "investor@tranche.app", password: "your-password" },
      response: "The user; the session cookie is set.",
      example: user,
      errors: [429],
    }),
    write("post", "/api/auth/sign-out", {
      id: "signOut",
      tag: "Auth",
      auth: "public",
      summary: "End the current session",
      status: 204,
      response: "Signed out.",
    }),
    get("/api/auth/session", {
      id: "getSession",
      tag: "Auth",
      auth: "public",
      summary: "The signed-in user, or null",
      response: "The session's user.",
      example: { user },
    }),
    get("/api/auth/demo-accounts", {
      id: "listDemoAccounts",
      tag: "Auth",
      auth: "public",
      summary: "The demo accounts, when demo mode is on",
      response: "Demo accounts (empty outside demo mode).",
    }),
    write("post", "/api/auth/change-password", {
      id: "changePassword",
      tag: "Auth",
      summary: "Change the signed-in user's password",
      body: changePasswordSchema,
      bodyExample: { currentPassword: "old-passphrase-1", newPassword: "a-new-long-passphrase-2" },
      response: "Changed; other sessions are ended.",
      errors: [422, 429],
    }),
    ...securityOperations(),
    get("/api/me", { id: "getMe", tag: "Auth", summary: "The signed-in user", response: "The user.", example: user }),
    get("/api/events", {
      id: "streamEvents",
      tag: "Realtime",
      summary: "Server-sent events for the signed-in user (notifications, changes to visible objects)",
      description: "Send `Last-Event-ID` to resume: events after that sequence number are replayed first.",
      produces: "text/event-stream",
      response: "An event stream.",
    }),
    // ---- public requests
    write("post", "/api/public-requests", {
      id: "createPublicRequest",
      tag: "Public requests",
      auth: "public",
      summary: "Request a demo, early access or a verifier partnership",
      body: publicRequestSchema,
      bodyExample: { kind: "demo", email: "cfo@fund.example", name: "Dana Lee", organization: "North Fund" },
      created: true,
      response: "Received.",
      errors: [429],
    }),
    get("/api/public-requests", {
      id: "listPublicRequests",
      tag: "Public requests",
      summary: "Inbound requests (admins)",
      query: listPublicRequestsQuery,
      response: "A page of requests.",
      errors: [403],
    }),
    // ---- projects
    get("/api/projects", {
      id: "listProjects",
      tag: "Projects",
      scopes: ["projects:read"],
      summary: "Projects the caller may see: filtered, searched (trigram), sorted, a page at a time",
      query: projectListQuerySchema,
      response: "A page of projects; `nextCursor` fetches the next (null on the last page).",
      example: { items: [project], nextCursor: null },
    }),
    get("/api/projects/counts", {
      id: "countProjects",
      tag: "Projects",
      scopes: ["projects:read"],
      summary: "How many projects the caller may see match the search, in all and per status",
      query: projectCountsQuerySchema,
      response: "The counts.",
      example: { total: 4, byStatus: { pending_verification: 1, verified: 2, funded: 1, at_risk: 0 } },
    }),
    get("/api/projects/export.csv", {
      id: "exportProjects",
      tag: "Projects",
      summary: "The project list with the same filters, as a streamed CSV download (UTF-8, header row)",
      query: projectListQuerySchema,
      produces: "text/csv",
      response: "CSV: amounts as plain decimals; cells that a spreadsheet would run as formulas are neutralised.",
    }),
    write("post", "/api/projects", {
      id: "createProject",
      tag: "Projects",
      summary: "Create a project (project owners, admins)",
      body: createProjectSchema,
      bodyExample: {
        name: "Mojave Solar Farm Phase II",
        description: "A 120 MW photovoltaic plant with storage.",
        location: "Mojave Desert, California",
        totalCapital: 12500000,
      },
      created: true,
      response: "The new project.",
      example: project,
    }),
    get("/api/projects/{id}", {
      id: "getProject",
      tag: "Projects",
      scopes: ["projects:read"],
      summary: "A project with its figures, team and the caller's permissions",
      response: "The project.",
      example: project,
    }),
    write("patch", "/api/projects/{id}", {
      id: "updateProject",
      tag: "Projects",
      summary: "Edit a project (its owner, admins)",
      body: updateProjectSchema,
      bodyExample: { name: "Mojave Solar Farm Phase II (North)" },
      response: "The updated project.",
      errors: [403, 409],
    }),
    write("delete", "/api/projects/{id}", {
      id: "deleteProject",
      tag: "Projects",
      summary: "Delete a project with no released capital (its owner, admins)",
      status: 204,
      response: "Deleted.",
      errors: [403, 409],
    }),
    write("post", "/api/projects/{id}/members", {
      id: "addProjectMember",
      tag: "Projects",
      summary: "Add an investor or verifier to the project team",
      body: memberSchema,
      bodyExample: { userId: ID, role: "verifier" },
      created: true,
      response: "The membership.",
      errors: [403, 409],
    }),
    write("post", "/api/projects/{id}/owner", {
      id: "transferProjectOwnership",
      tag: "Projects",
      summary: "Transfer the project to another project owner (admins, second factor)",
      description: SECOND_FACTOR_NOTE,
      body: transferOwnershipSchema,
      bodyExample: { userId: ID },
      response: "The project with its new owner; the old and new owners are notified.",
      example: project,
      errors: [403, 409, 422],
    }),
    write("delete", "/api/projects/{id}/members/{userId}", {
      id: "removeProjectMember",
      tag: "Projects",
      summary: "Remove a team member",
      query: removeMemberQuery,
      status: 204,
      response: "Removed.",
      errors: [403, 409],
    }),
    write("put", "/api/projects/{id}/lead-investor", {
      id: "setLeadInvestor",
      tag: "Projects",
      summary: "Name the project's lead investor, who may set its release policy (admins)",
      body: leadInvestorSchema,
      bodyExample: { userId: ID },
      response: "The project, its team showing the lead investor.",
      errors: [403, 422],
    }),
    get("/api/projects/{id}/release-policy", {
      id: "getReleasePolicy",
      tag: "Projects",
      summary: "The release policy in force, in one sentence, with every earlier version",
      response: "The release policy and its versions.",
    }),
    write("put", "/api/projects/{id}/release-policy", {
      id: "setReleasePolicy",
      tag: "Projects",
      summary: "Set the release policy: a new version (admins and the project's lead investor)",
      description:
        "Approvals needed (1 to 5), more for milestones of at least an amount, verifiers from different organizations, and an investor countersignature above an amount. Each release records the version that applied.",
      body: releasePolicySchema,
      bodyExample: {
        requiredApprovals: 2,
        thresholds: [{ minAmount: 1_000_000, approvals: 3 }],
        distinctOrganizations: true,
        cosignAbove: 1_000_000,
      },
      response: "The release policy now in force.",
      errors: [403],
    }),
    get("/api/projects/{id}/milestones", {
      id: "listProjectMilestones",
      tag: "Milestones",
      summary: "The project's milestones in schedule order",
      response: "The milestones.",
      example: { items: [milestone] },
    }),
    write("post", "/api/projects/{id}/milestones", {
      id: "createMilestone",
      tag: "Milestones",
      summary: "Add a milestone (the project's owner, admins)",
      body: createMilestoneSchema,
      bodyExample: {
        title: "Foundations poured",
        description: "All pile foundations poured and inspected.",
        dueDate: "2026-12-15",
        capitalAmount: 2500000,
      },
      created: true,
      response: "The new milestone.",
      example: milestone,
      errors: [403, 409, 422],
    }),
    // ---- milestones
    get("/api/milestones", {
      id: "listMilestones",
      tag: "Milestones",
      summary: "Milestones the caller may see: filtered, searched by title, sorted, a page at a time",
      query: milestoneListQuerySchema,
      response: "A page of milestones; `nextCursor` fetches the next (null on the last page).",
      example: { items: [milestone], nextCursor: null },
    }),
    get("/api/milestones/counts", {
      id: "countMilestones",
      tag: "Milestones",
      summary: "How many milestones the caller may see match the list's filters, in all and per status",
      query: milestoneCountsQuerySchema,
      response: "The counts.",
      example: { total: 5, byStatus: { pending: 2, in_verification: 1, verified: 1, rejected: 1, delayed: 0 } },
    }),
    get("/api/milestones/export.csv", {
      id: "exportMilestones",
      tag: "Milestones",
      summary: "The milestone list with the same filters, as a streamed CSV download (UTF-8, header row)",
      query: milestoneListQuerySchema,
      produces: "text/csv",
      response: "CSV: amounts as plain decimals; cells that a spreadsheet would run as formulas are neutralised.",
    }),
    get("/api/milestones/{id}", {
      id: "getMilestone",
      tag: "Milestones",
      summary: "A milestone with its release and the caller's permissions",
      response: "The milestone.",
      example: milestone,
    }),
    write("patch", "/api/milestones/{id}", {
      id: "updateMilestone",
      tag: "Milestones",
      summary: "Edit a milestone that is not verified",
      body: updateMilestoneSchema,
      bodyExample: { dueDate: "2027-01-15" },
      response: "The updated milestone.",
      errors: [403, 409, 422],
    }),
    write("delete", "/api/milestones/{id}", {
      id: "deleteMilestone",
      tag: "Milestones",
      summary: "Delete a milestone with no release",
      status: 204,
      response: "Deleted.",
      errors: [403, 409],
    }),
    get("/api/milestones/{id}/history", {
      id: "getMilestoneHistory",
      tag: "Milestones",
      summary: "The milestone's audit trail",
      response: "Its events, oldest first.",
    }),
    // ---- verification
    get("/api/milestones/{id}/verification", {
      id: "getVerification",
      tag: "Verification",
      summary: "The verification workspace: checklist, reports, evidence and what the caller may do",
      response: "The verification state.",
      errors: [403],
    }),
    write("post", "/api/milestones/{id}/start", {
      id: "startVerification",
      tag: "Verification",
      summary: "Start verifying a milestone (an assigned verifier)",
      response: "The milestone, now in verification.",
      errors: [403, 409],
    }),
    write("post", "/api/milestones/{id}/approve", {
      id: "approveMilestone",
      tag: "Verification",
      summary:
        "Approve (an assigned verifier); the approval that completes the release policy instructs the release, exactly once",
      description:
        "Under a policy needing several approvals each assigned verifier approves once; `share` (percent) approves part of the open amount, with a reason. Send an `Idempotency-Key` header to make retries safe: the same key answers the first result again. Send `round` and `policyVersion` as the verifier saw them: a milestone that has moved on since is refused with 409 `stale_round`.",
      body: approveSchema,
      bodyOptional: true,
      bodyExample: { comments: "All checklist items verified on site." },
      response: "The milestone and its release.",
      errors: [403, 409, 422],
    }),
    write("post", "/api/milestones/{id}/reject", {
      id: "rejectMilestone",
      tag: "Verification",
      summary: "Reject with a reason",
      description:
        "`Idempotency-Key`, `round` and `policyVersion` as for approve: a replay answers the first result, a stale round is refused with 409 `stale_round`.",
      body: rejectSchema,
      bodyExample: { comments: "The inspection certificate is missing." },
      response: "The milestone, now rejected.",
      errors: [403, 409],
    }),
    write("post", "/api/milestones/{id}/countersign", {
      id: "countersignMilestone",
      tag: "Verification",
      summary: "Countersign a release the verifiers agreed on (an investor member, when the policy asks for it)",
      body: decisionSchema,
      bodyOptional: true,
      bodyExample: { comments: "Countersigned for the investment committee." },
      response: "The milestone and its release.",
      errors: [403, 409],
    }),
    write("post", "/api/milestones/{id}/dispute", {
      id: "disputeRejection",
      tag: "Verification",
      summary: "Dispute a rejection with a statement (the project owner)",
      body: disputeSchema,
      bodyExample: { statement: "The invoices were uploaded on 3 March; see evidence file 4." },
      response: "The milestone, its dispute open.",
      errors: [403, 409],
    }),
    write("post", "/api/milestones/{id}/dispute/assign", {
      id: "assignDispute",
      tag: "Verification",
      summary: "Assign a different verifier to a disputed rejection (admins); their decision closes the dispute",
      body: assignDisputeSchema,
      bodyExample: { verifierId: ID },
      response: "The milestone, in verification by the assigned verifier.",
      errors: [403, 409, 422],
    }),
    write("post", "/api/milestones/{id}/resubmit", {
      id: "resubmitMilestone",
      tag: "Verification",
      summary: "Resubmit a rejected milestone for verification (its owner)",
      response: "The milestone, pending verification again.",
      errors: [403, 409],
    }),
    write("post", "/api/milestones/{id}/delay", {
      id: "markMilestoneDelayed",
      tag: "Verification",
      summary: "Mark a milestone delayed",
      response: "The milestone, now delayed.",
      errors: [403, 409],
    }),
    write("put", "/api/milestones/{id}/checklist", {
      id: "updateChecklist",
      tag: "Verification",
      summary: "Save the verification checklist, with a note per item",
      description: "`notes` replaces the items' notes when sent; `round` as for approve; `Idempotency-Key` replays.",
      body: checklistUpdateSchema,
      bodyExample: Object.fromEntries(CHECKLIST_ITEMS.map((item, i) => [item.key, i < 3])),
      response: "The saved checklist.",
      errors: [403, 409],
    }),
    write("post", "/api/milestones/{id}/report", {
      id: "submitReport",
      tag: "Verification",
      summary: "Submit the verification report (201), or edit the report of the same decision (200)",
      body: reportSchema,
      bodyOptional: true,
      bodyExample: { comments: "Site visit on 12 December; photographs attached." },
      response: "The report.",
      errors: [403, 409],
    }),
    get("/api/verifications", {
      id: "listVerificationQueue",
      tag: "Verification",
      summary: "The signed-in verifier's queue",
      response: "Pending, in progress and completed verifications.",
      errors: [403],
    }),
    get("/api/field/assignments", {
      id: "listFieldAssignments",
      tag: "Verification",
      summary: "The signed-in verifier's open assignments, most urgent first (overdue, due soon, resubmitted, new)",
      response: "Each assignment with its site coordinates, round and urgency.",
      errors: [403],
    }),
    get("/api/field/assignments/{id}", {
      id: "getFieldVisit",
      tag: "Verification",
      summary:
        "What a site visit needs: the assignment, its verification state and its evidence (an assigned verifier)",
      response: "The visit, as the field app keeps it on the device.",
      errors: [403],
    }),
    get("/api/verifications/completed", {
      id: "listCompletedVerifications",
      tag: "Verification",
      summary: "Every decision of the signed-in verifier, newest first, a page at a time",
      query: completedQuery,
      response: "A page of decided milestones, with the total.",
      errors: [403],
    }),
    get("/api/reports", {
      id: "listReports",
      tag: "Verification",
      summary: "Verification reports the caller may see, newest first, a page at a time",
      query: reportListQuerySchema,
      response: "A page of reports; `nextCursor` fetches the next.",
    }),
    get("/api/verifiers", {
      id: "listVerifiers",
      tag: "Verification",
      summary: "Verifiers with their track record, searched and sorted, a page at a time",
      query: verifierListQuerySchema,
      response: "A page of verifiers; `nextCursor` fetches the next.",
      errors: [403],
    }),
    // ---- evidence
    get("/api/milestones/{id}/evidence", {
      id: "listEvidence",
      tag: "Evidence",
      summary: "The milestone's evidence files with their SHA-256",
      response: "The files.",
    }),
    write("post", "/api/milestones/{id}/evidence", {
      id: "uploadEvidence",
      tag: "Evidence",
      summary: "Upload evidence files (multipart field `files`; the project's owner or its verifier)",
      description:
        "Beside `files`, an optional JSON field `captures` gives each file's capture tags, in order: " +
        "`{ sha256, latitude, longitude, accuracy, capturedAt }`. A tagged file whose SHA-256 differs from its entry's " +
        "is refused with 422 `hash_mismatch` and nothing of the upload is stored. The server computes each capture's " +
        "distance to the project's site and flags one taken farther than EVIDENCE_SITE_RADIUS_M (`far_from_site`) " +
        "or outside the milestone's verification window (`outside_window`). Send an `Idempotency-Key` header to make " +
        "retries safe: the same key answers the first result again and stores nothing twice.",
      multipart: true,
      created: true,
      response: "The stored files, with their capture tags and flags.",
      errors: [403, 409, 413, 415, 422],
    }),
    get("/api/evidence/{id}", {
      id: "downloadEvidence",
      tag: "Evidence",
      summary: "Download an evidence file (served as an attachment in a sandbox)",
      produces: "application/octet-stream",
      response: "The file's bytes.",
    }),
    write("delete", "/api/evidence/{id}", {
      id: "deleteEvidence",
      tag: "Evidence",
      summary: "Delete an evidence file while the milestone is not in verification",
      status: 204,
      response: "Deleted.",
      errors: [403, 409],
    }),
    // ---- audit
    get("/api/audit", {
      id: "listAuditEvents",
      tag: "Audit",
      summary: "The hash-chained audit record (admins: all; members: their projects)",
      query: auditQuerySchema,
      response: "A page of events, newest first.",
    }),
    get("/api/audit/export.csv", {
      id: "exportAuditEvents",
      tag: "Audit",
      summary:
        "The audit events the caller may see (optionally one project's), oldest first, as a streamed CSV download",
      query: auditExportQuerySchema,
      produces: "text/csv",
      response: "CSV: before and after as JSON text, each event's chain hash; formula-leading cells neutralised.",
    }),
    get("/api/audit/checkpoints", {
      id: "listAuditCheckpoints",
      tag: "Audit",
      summary: "Signed checkpoints of the audit chain head (admins)",
      query: checkpointQuerySchema,
      response: "A page of checkpoints, newest first.",
      errors: [403],
    }),
    get("/api/audit/public-key", {
      id: "getAuditPublicKey",
      tag: "Audit",
      auth: "public",
      summary: "The Ed25519 public key that verifies checkpoint signatures",
      response: "The key.",
      example: { algorithm: "Ed25519", keyId: "3f1c9a2b7d4e8f60", publicKeyPem: "-----BEGIN PUBLIC KEY-----\n…" },
    }),
    // ---- notifications
    get("/api/notifications", {
      id: "listNotifications",
      tag: "Notifications",
      summary: "The signed-in user's notifications, newest first",
      query: listNotificationsQuery,
      response: "A page of notifications.",
    }),
    get("/api/notifications/unread-count", {
      id: "countUnreadNotifications",
      tag: "Notifications",
      summary: "How many notifications are unread",
      response: "The count.",
      example: { count: 3 },
    }),
    write("post", "/api/notifications/read-all", {
      id: "markAllNotificationsRead",
      tag: "Notifications",
      summary: "Mark every notification read",
      response: "Done.",
      errors: [],
    }),
    write("post", "/api/notifications/{id}/read", {
      id: "markNotificationRead",
      tag: "Notifications",
      summary: "Mark one notification read",
      response: "Done.",
      errors: [],
    }),
    // ---- people
    get("/api/users", {
      id: "listUsers",
      tag: "Users",
      summary: "Users, filtered by role, searched by name or email, sorted, a page at a time (admins)",
      query: userListQuerySchema,
      response: "A page of users; `nextCursor` fetches the next.",
      errors: [403],
    }),
    write("patch", "/api/users/{id}", {
      id: "changeUserRole",
      tag: "Users",
      summary: "Change a user's role (admins)",
      body: updateUserSchema,
      bodyExample: { role: "verifier" },
      response: "The user.",
      errors: [403, 409],
    }),
    // ---- releases (custodians use these with an API token)
    get("/api/releases", {
      id: "listReleases",
      tag: "Releases",
      scopes: ["releases:read"],
      summary: "Releases the caller may see, newest first (cursor pagination)",
      query: releaseListQuery,
      response: "A page of releases; `nextCursor` fetches the next.",
      example: { items: [release], nextCursor: null },
    }),
    get("/api/releases/export.csv", {
      id: "exportReleases",
      tag: "Releases",
      scopes: ["releases:read"],
      summary: "The release list with the same filters, as a streamed CSV download (UTF-8, header row)",
      query: releaseListQuery,
      produces: "text/csv",
      response: "CSV: amounts as plain decimals; cells that a spreadsheet would run as formulas are neutralised.",
    }),
    get("/api/releases/{id}", {
      id: "getRelease",
      tag: "Releases",
      scopes: ["releases:read"],
      summary: "One release with its instruction, settlement, failure or cancellation",
      response: "The release.",
      example: release,
    }),
    write("post", "/api/releases/{id}/settle", {
      id: "settleRelease",
      tag: "Releases",
      scopes: ["releases:write"],
      summary: "Report the release paid (custodians; admins)",
      description:
        "The same reference again answers 200 with `Idempotent-Replayed: true`; another reference, or a failed " +
        "or cancelled release, answers 409.",
      body: settleReleaseSchema,
      bodyExample: { reference: "WIRE-2026-000123", settledAt: "2026-01-15T09:30:00Z" },
      response: "The settled release.",
      example: {
        ...release,
        status: "settled",
        settlement: { reference: "WIRE-2026-000123", settledAt: "2026-01-15T09:30:00.000Z" },
      },
      errors: [403, 409, 429],
    }),
    write("post", "/api/releases/{id}/fail", {
      id: "failRelease",
      tag: "Releases",
      scopes: ["releases:write"],
      summary: "Report that the release could not be paid, with the reason (custodians; admins)",
      body: failReleaseSchema,
      bodyExample: { reason: "Beneficiary account closed." },
      response: "The failed release.",
      errors: [403, 409, 429],
    }),
    write("post", "/api/releases/{id}/reinstruct", {
      id: "reinstructRelease",
      tag: "Releases",
      summary: "Instruct a failed release again: a new instruction id on the same release (admins)",
      response: "The release, instructed again.",
      errors: [403, 409],
    }),
    write("post", "/api/releases/{id}/cancel", {
      id: "cancelRelease",
      tag: "Releases",
      summary: "Cancel a failed release with a reason; the milestone stays verified (admins)",
      body: cancelReleaseSchema,
      bodyExample: { reason: "Paid outside Tranche after the account change; see the board minutes." },
      response: "The cancelled release.",
      errors: [403, 409],
    }),
    // ---- API tokens
    get("/api/api-tokens", {
      id: "listApiTokens",
      tag: "API tokens",
      summary: "Every API token with its scopes and last use (admins)",
      response: "The tokens (never the tokens themselves).",
      errors: [403],
    }),
    write("post", "/api/api-tokens", {
      id: "createApiToken",
      tag: "API tokens",
      summary: "Create an API token; the answer is the only time the token is shown (admins)",
      body: createApiTokenSchema,
      bodyExample: { name: "Northwind Custody", scopes: ["releases:read", "releases:write"] },
      created: true,
      response: "The token, shown once.",
      errors: [403],
    }),
    write("delete", "/api/api-tokens/{id}", {
      id: "revokeApiToken",
      tag: "API tokens",
      summary: "Revoke an API token (admins)",
      status: 204,
      response: "Revoked.",
      errors: [403],
    }),
    // ---- webhooks (admins)
    get("/api/webhook-endpoints", {
      id: "listWebhookEndpoints",
      tag: "Webhooks",
      summary: "Webhook endpoints (admins); secrets are never listed",
      response: "The endpoints.",
      example: { items: [webhookEndpoint] },
      errors: [403],
    }),
    write("post", "/api/webhook-endpoints", {
      id: "createWebhookEndpoint",
      tag: "Webhooks",
      summary: "Register an endpoint (admins); https, not a private address; the whsec_ secret is shown once",
      body: createWebhookEndpointSchema,
      bodyExample: {
        url: "https://custodian.example/tranche/webhooks",
        events: ["release.instructed", "release.settled"],
        description: "Escrow agent",
      },
      created: true,
      response: "The endpoint with its signing secret (this answer only).",
      example: { ...webhookEndpoint, secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" },
    }),
    get("/api/webhook-endpoints/{id}", {
      id: "getWebhookEndpoint",
      tag: "Webhooks",
      summary: "One endpoint (admins)",
      response: "The endpoint.",
      example: webhookEndpoint,
      errors: [403],
    }),
    write("patch", "/api/webhook-endpoints/{id}", {
      id: "updateWebhookEndpoint",
      tag: "Webhooks",
      summary: "Change an endpoint's URL, events, description or enabled flag (admins)",
      body: updateWebhookEndpointSchema,
      bodyExample: { enabled: true, events: ["release.instructed"] },
      response: "The endpoint.",
      example: webhookEndpoint,
    }),
    write("delete", "/api/webhook-endpoints/{id}", {
      id: "deleteWebhookEndpoint",
      tag: "Webhooks",
      summary: "Delete an endpoint and its delivery log (admins)",
      status: 204,
      response: "Deleted.",
    }),
    write("post", "/api/webhook-endpoints/{id}/rotate-secret", {
      id: "rotateWebhookSecret",
      tag: "Webhooks",
      summary: "A new signing secret, shown once; the previous one signs beside it for 24 hours (admins)",
      response: "The endpoint with its new secret.",
      example: { ...webhookEndpoint, secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" },
    }),
    write("post", "/api/webhook-endpoints/{id}/test", {
      id: "sendWebhookTestEvent",
      tag: "Webhooks",
      summary: "Send a webhook.test event to this endpoint (admins)",
      status: 202,
      response: "Queued; the delivery id is its webhook-id.",
      example: { deliveryId: ID },
    }),
    get("/api/webhook-endpoints/{id}/deliveries", {
      id: "listWebhookDeliveries",
      tag: "Webhooks",
      summary: "The endpoint's deliveries with every attempt, newest first (admins)",
      query: deliveriesQuerySchema,
      response: "A page of deliveries.",
      example: {
        items: [
          {
            id: ID,
            eventId: ID,
            eventType: "release.instructed",
            status: "delivered",
            createdAt: "2026-05-04T10:00:00.000Z",
            nextAttemptAt: null,
            attempts: [
              { at: "2026-05-04T10:00:00.120Z", statusCode: 200, durationMs: 84, response: "ok", error: null },
            ],
          },
        ],
        nextCursor: null,
      },
      errors: [403],
    }),
    write("post", "/api/webhook-endpoints/{id}/deliveries/{deliveryId}/retry", {
      id: "retryWebhookDelivery",
      tag: "Webhooks",
      summary: "Retry now: a pending or failed delivery is attempted at once (admins)",
      status: 202,
      response: "Queued.",
      errors: [403, 409],
    }),
    write("post", "/api/webhook-endpoints/{id}/deliveries/{deliveryId}/replay", {
      id: "replayWebhookDelivery",
      tag: "Webhooks",
      summary: "Replay: send a finished delivery again with the same webhook-id (admins)",
      status: 202,
      response: "Queued.",
      errors: [403, 409],
    }),
    // ---- certificates
    get("/api/releases/{id}/certificate", {
      id: "downloadReleaseCertificate",
      tag: "Releases",
      summary: "The release certificate (PDF): amount, beneficiary, approvals, evidence hashes, audit proof, QR code",
      description:
        "Its facts are fixed when first issued; the `X-Certificate-Fingerprint` header carries their SHA-256, " +
        "which /api/certificates/verify checks.",
      produces: "application/pdf",
      response: "The PDF.",
    }),
    get("/api/certificates/verify", {
      id: "verifyCertificate",
      tag: "Releases",
      auth: "public",
      summary: "Check a release certificate against Tranche's record",
      query: certificateQuerySchema,
      response: "Whether it matches; when it does, what the certificate states.",
      example: { valid: false },
    }),
    get("/api/openapi.json", {
      id: "getOpenApiDocument",
      tag: "Docs",
      auth: "public",
      summary: "This document",
      response: "The OpenAPI 3.1 document.",
    }),
    get("/api/docs", {
      id: "getApiDocs",
      tag: "Docs",
      auth: "public",
      summary: "Interactive documentation of this document",
      produces: "text/html",
      response: "An HTML page.",
    }),
    get("/api/search", {
      id: "search",
      tag: "Dashboard",
      summary: "Header suggestions: projects, milestones and (for admins) people matching a term, five of each",
      query: searchQuery,
      response: "The suggestions.",
      example: {
        projects: [{ id: ID, name: "Mojave Solar Farm Phase II", location: "Boulder City, Nevada" }],
        milestones: [{ id: ID, title: "Foundations poured", projectName: "Mojave Solar Farm Phase II" }],
        people: [],
      },
    }),
    get("/api/analytics", {
      id: "getAnalytics",
      tag: "Dashboard",
      summary: "Capital released and settled by month, milestones by status, turnaround (admins), upcoming releases",
      response: "The series the Reports charts draw, over the projects the caller may see.",
    }),
    get("/api/dashboard", {
      id: "getDashboard",
      tag: "Dashboard",
      summary: "The signed-in role's dashboard figures",
      response: "Figures per currency and lists for the role.",
    }),
    ...peopleOperations(get, write, invitationLookupSchema),
    ...deviceOperations(get, write),
  ];
}
