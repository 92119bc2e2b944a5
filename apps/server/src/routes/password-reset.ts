import { createRoute } from "@hono/zod-openapi";
import {
  authOptionsSchema,
  emailVerifiedSchema,
  forgotPasswordAnswerSchema,
  forgotPasswordSchema,
  passwordResetLookupSchema,
  resetPasswordSchema,
  verifyEmailSchema,
} from "@tranche/domain";
import { deviceHash } from "../auth/known-devices";
import { clientIp } from "../auth/middleware";
import { limitByIp } from "../auth/service";
import { clearSessionCookie } from "../auth/sessions";
import { ApiRoutes, body, empty, errors, json, PUBLIC } from "../openapi/routes";
import { verifyEmail } from "../services/email-verification/verify";
import { requestPasswordReset } from "../services/password-reset/request";
import { lookUpPasswordReset, resetPassword } from "../services/password-reset/reset";

/** The same words whether or not an account has the address. */
export const FORGOT_PASSWORD_ANSWER =
  "If an account uses this email, a link to reset its password is on its way. It works for 30 minutes.";

const tags = ["Auth"];
const TOKEN = "q8m3V0c2Xy7RkLp4Tn9sWb1Hd6Jf5Ge0Ua2Zi8Oe3Yr";
const tokenBody = resetPasswordSchema.pick({ token: true });

const options = createRoute({
  method: "get",
  path: "/options",
  operationId: "getAuthOptions",
  tags,
  summary: "Whether self sign-up is open (ALLOW_SIGNUP)",
  security: PUBLIC,
  responses: { 200: json(authOptionsSchema, "The options.") },
});

const forgot = createRoute({
  method: "post",
  path: "/forgot-password",
  operationId: "forgotPassword",
  tags,
  summary: "Email a single-use link (30 minutes) to reset a password",
  description:
    "Answers the same, at the same speed, whether or not an account has the address. Limited per IP and per address.",
  security: PUBLIC,
  request: {
    body: {
      content: { "application/json": { schema: forgotPasswordSchema, example: { email: "dana@fund.example" } } },
      required: true,
    },
  },
  responses: { 202: json(forgotPasswordAnswerSchema, "Accepted."), ...errors(429) },
});

const verify = createRoute({
  method: "post",
  path: "/verify-email",
  operationId: "verifyEmail",
  tags,
  summary: "Confirm an account's email address with the single-use link emailed at sign-up",
  security: PUBLIC,
  request: {
    body: { content: { "application/json": { schema: verifyEmailSchema, example: { token: TOKEN } } }, required: true },
  },
  responses: {
    200: json(emailVerifiedSchema, "Confirmed."),
    ...errors(404, 410, 429),
  },
});

const lookup = createRoute({
  method: "post",
  path: "/reset-password/lookup",
  operationId: "lookUpPasswordReset",
  tags,
  summary: "Whether a reset link still works (its page asks when it opens)",
  security: PUBLIC,
  request: {
    body: { content: { "application/json": { schema: tokenBody, example: { token: TOKEN } } }, required: true },
  },
  responses: {
    200: json(passwordResetLookupSchema, "The link works until `expiresAt`."),
    ...errors(404, 410, 429),
  },
});

const reset = createRoute({
  method: "post",
  path: "/reset-password",
  operationId: "resetPassword",
  tags,
  summary: "Set a new password with a reset link's token; every session of the account ends",
  security: PUBLIC,
  request: {
    body: {
      content: {
        "application/json": {
          schema: resetPasswordSchema,
          example: { token: TOKEN, password: "a-new-long-passphrase-2" },
        },
      },
      required: true,
    },
  },
  responses: {
    204: empty("Changed; the account is signed out everywhere and told by email."),
    ...errors(404, 410, 422, 429),
  },
});

export const passwordResetRoutes = new ApiRoutes()
  .handle(options, (c) => c.json({ signUpAllowed: c.get("deps").env.ALLOW_SIGNUP }, 200))
  .handle(forgot, async (c) => {
    const { db, env } = c.get("deps");
    const { email } = await body(c, forgot);
    await requestPasswordReset(db, env, email, { ip: clientIp(c), device: deviceHash(c) });
    return c.json({ message: FORGOT_PASSWORD_ANSWER }, 202);
  })
  // The link emailed at sign-up; its token travels in the body, never in a logged URL.
  .handle(verify, async (c) => {
    const { db, env } = c.get("deps");
    await limitByIp(db, env, "signin", clientIp(c));
    const { token } = await body(c, verify);
    return c.json(await verifyEmail(db, token), 200);
  })
  // Whether a reset link still works, asked when its page opens; the token travels in the body, never in a URL.
  .handle(lookup, async (c) => {
    const { db, env } = c.get("deps");
    await limitByIp(db, env, "signin", clientIp(c));
    const { token } = await body(c, lookup);
    return c.json(await lookUpPasswordReset(db, token), 200);
  })
  .handleRaw(reset, async (c) => {
    const { db, env } = c.get("deps");
    const input = await body(c, reset);
    const { userId } = await resetPassword(db, env, input);
    // Every session of the account has ended, this browser's included if it was signed in as them.
    if (c.get("user")?.id === userId) clearSessionCookie(c, env);
    return c.body(null, 204);
  });
