import {
  acceptInvitationSchema,
  createInvitationSchema,
  emailPreferencesSchema,
  forgotPasswordSchema,
  resetPasswordSchema,
  updateProfileSchema,
} from "@tranche/domain";
import type { z } from "zod";
import type { Operation } from "./operations";

type Rest = Omit<Operation, "method" | "path" | "auth"> & Partial<Pick<Operation, "auth">>;
type Get = (path: string, rest: Rest) => Operation;
type Write = (method: "post" | "put" | "patch" | "delete", path: string, rest: Rest) => Operation;

const ID = "0b9e4c2a-5d7f-4e1b-9a3c-6f8d2e4b7a10";
const TOKEN = "q8m3V0c2Xy7RkLp4Tn9sWb1Hd6Jf5Ge0Ua2Zi8Oe3Yr";
const invitation = {
  id: ID,
  email: "dana@fund.example",
  role: "investor",
  organization: "North Fund",
  projects: [{ id: ID, name: "Mojave Solar Farm Phase II" }],
  invitedBy: "Alex Admin",
  sentAt: "2026-05-04T09:00:00.000Z",
  expiresAt: "2026-05-07T09:00:00.000Z",
  status: "pending",
};
const profile = {
  id: ID,
  name: "Maria Santos",
  email: "verifier@tranche.app",
  role: "verifier",
  organization: "GreenCheck Assurance",
  avatar: null,
  expertise: ["Solar", "Grid connection"],
};
const preferences = { verification: "instant", releases: "instant", projects: "digest", account: "digest" };

/** Invitations, password reset, profile, email settings and the email outbox (issue 12). */
export function peopleOperations(get: Get, write: Write, lookupSchema: z.ZodType): Operation[] {
  return [
    get("/api/auth/options", {
      id: "getAuthOptions",
      tag: "Auth",
      auth: "public",
      summary: "Whether self sign-up is open (ALLOW_SIGNUP)",
      response: "The options.",
      example: { signUpAllowed: true },
    }),
    write("post", "/api/auth/forgot-password", {
      id: "forgotPassword",
      tag: "Auth",
      auth: "public",
      summary: "Email a single-use link (30 minutes) to reset a password",
      description:
        "Answers the same, at the same speed, whether or not an account has the address. Limited per IP and per address.",
      body: forgotPasswordSchema,
      bodyExample: { email: "dana@fund.example" },
      status: 202,
      response: "Accepted.",
      example: { message: "If an account uses this email, a link to reset its password is on its way." },
      errors: [429],
    }),
    write("post", "/api/auth/reset-password", {
      id: "resetPassword",
      tag: "Auth",
      auth: "public",
      summary: "Set a new password with a reset link's token; every session of the account ends",
      body: resetPasswordSchema,
      bodyExample: { token: TOKEN, password: "a-new-long-passphrase-2" },
      status: 204,
      response: "Changed; the account is signed out everywhere and told by email.",
      errors: [404, 410, 422],
    }),
    get("/api/invitations", {
      id: "listInvitations",
      tag: "Users",
      summary: "Pending invitations (admins)",
      response: "Invitations not yet accepted or revoked.",
      example: [invitation],
      errors: [403],
    }),
    write("post", "/api/invitations", {
      id: "createInvitation",
      tag: "Users",
      summary: "Invite a person by email with a role, organization and projects (admins)",
      body: createInvitationSchema,
      bodyExample: { email: "dana@fund.example", role: "investor", organization: "North Fund", projectIds: [ID] },
      created: true,
      response: "The invitation; its email (a link valid 72 hours) is on its way.",
      example: invitation,
      errors: [403, 409],
    }),
    write("post", "/api/invitations/{id}/resend", {
      id: "resendInvitation",
      tag: "Users",
      summary: "Send a pending invitation again with a new link (admins)",
      response: "The invitation; the old link no longer works.",
      example: invitation,
    }),
    write("delete", "/api/invitations/{id}", {
      id: "revokeInvitation",
      tag: "Users",
      summary: "Withdraw a pending invitation (admins)",
      status: 204,
      response: "Revoked; the link no longer works.",
    }),
    write("post", "/api/invitations/lookup", {
      id: "lookupInvitation",
      tag: "Users",
      auth: "public",
      summary: "What an invitation link offers (email, role), before accepting",
      body: lookupSchema,
      bodyExample: { token: TOKEN },
      response: "The invitation's address and role.",
      example: {
        email: "dana@fund.example",
        role: "investor",
        organization: "North Fund",
        expiresAt: invitation.expiresAt,
      },
      errors: [410, 429],
    }),
    write("post", "/api/invitations/accept", {
      id: "acceptInvitation",
      tag: "Users",
      auth: "public",
      summary: "Accept an invitation: set name and password, then be signed in with the invited role",
      body: acceptInvitationSchema,
      bodyExample: { token: TOKEN, name: "Dana Lee", password: "a-long-passphrase-9" },
      created: true,
      response: "The new user; the session cookie is set.",
      errors: [404, 409, 410, 422, 429],
    }),
    get("/api/me/profile", {
      id: "getProfile",
      tag: "Account",
      summary: "The signed-in person's profile",
      response: "The profile.",
      example: profile,
    }),
    write("patch", "/api/me/profile", {
      id: "updateProfile",
      tag: "Account",
      summary: "Change name and organization (and, for verifiers, expertise)",
      body: updateProfileSchema,
      bodyExample: { name: "Maria Santos", organization: "GreenCheck Assurance", expertise: ["Solar"] },
      response: "The profile.",
      example: profile,
      errors: [],
    }),
    write("put", "/api/me/avatar", {
      id: "setAvatar",
      tag: "Account",
      summary: "Upload a picture: the body is the image itself (PNG, JPEG or WebP, at most 200 KB)",
      response: "The profile with its new avatar URL.",
      example: profile,
      errors: [400, 413, 415],
    }),
    write("delete", "/api/me/avatar", {
      id: "removeAvatar",
      tag: "Account",
      summary: "Remove the picture",
      response: "The profile.",
      errors: [],
    }),
    get("/api/me/email-preferences", {
      id: "getEmailPreferences",
      tag: "Account",
      summary: "Email per notification category: instant, daily digest or off",
      response: "The settings (defaults where none was chosen).",
      example: preferences,
    }),
    write("put", "/api/me/email-preferences", {
      id: "setEmailPreferences",
      tag: "Account",
      summary: "Choose email per notification category",
      body: emailPreferencesSchema,
      bodyExample: preferences,
      response: "The settings.",
      example: preferences,
      errors: [],
    }),
    get("/api/users/{id}/avatar", {
      id: "getAvatar",
      tag: "Users",
      summary: "A person's picture",
      produces: "image/*",
      response: "The image.",
    }),
    get("/api/outbox/emails", {
      id: "listOutboxEmails",
      tag: "Integrations",
      summary: "The latest 100 emails and how each was handled (admins)",
      description:
        "Without SMTP_URL, messages are kept here instead of sent: their text and link are shown so the flow works on a fresh machine.",
      response: "The emails, newest first.",
      errors: [403],
    }),
  ];
}
