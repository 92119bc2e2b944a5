import { createRoute } from "@hono/zod-openapi";
import {
  confirmPasswordSchema,
  enableTotpSchema,
  recoveryCodesSchema,
  secondFactorChangeSchema,
  secondFactorSchema,
  secondFactorStatusSchema,
  totpSetupSchema,
  webauthnOptionsSchema,
} from "@tranche/domain";
import type { Context } from "hono";
import { clientIp, requireUser } from "../auth/middleware";
import type { AppEnv } from "../context";
import { ApiRoutes, body, empty, errors, json, jsonBody, optionalJson, SESSION } from "../openapi/routes";
import {
  disableTotp,
  enableTotp,
  regenerateRecoveryCodes,
  type SecurityContext,
  secondFactorStatus,
  startTotpSetup,
  verifySecondFactor,
} from "../services/mfa/second-factor";
import { assertionOptions } from "../services/passkeys/assertion";

const securityContext = (c: Context<AppEnv>): SecurityContext => ({
  actor: requireUser(c),
  deps: c.get("deps"),
  ip: clientIp(c),
});

const tags = ["Security"];
/** A body carrying a code from the app, or a recovery code. */
const codeBody = {
  content: { "application/json": { schema: secondFactorSchema, example: { code: "123456" } } },
  required: true,
};
/** A fresh second factor and the account's password typed again: changing the second factor needs both. */
const changeBody = jsonBody(secondFactorChangeSchema, { code: "123456", password: "your-password" });
/** What every change to the second factor says about the password. */
const PASSWORD_NOTE =
  "The account's `password` is typed again in the same request, even in a session that passed the second factor " +
  "(400 without it or when it is wrong, and nothing changes; wrong ones count as failed sign-ins, 429 past the limit).";

const status = createRoute({
  method: "get",
  path: "/",
  operationId: "getSecondFactor",
  tags,
  summary: "Whether a second factor is set up and required, and until when this session's counts",
  security: SESSION,
  responses: { 200: json(secondFactorStatusSchema, "The second factor's status.") },
});

const setup = createRoute({
  method: "post",
  path: "/totp/setup",
  operationId: "startTotpSetup",
  tags,
  summary: "Start setting up an authenticator app: a new secret and its QR code",
  description: `Once a second factor is set up, the session must have passed it within 12 hours (else 403 \`mfa_required\`). ${PASSWORD_NOTE}`,
  security: SESSION,
  request: { body: jsonBody(confirmPasswordSchema, { password: "your-password" }) },
  responses: {
    ...errors(429),
    200: json(totpSetupSchema, "The secret (base32), its otpauth URL and a QR code; not on until a code is confirmed."),
  },
});

const enable = createRoute({
  method: "post",
  path: "/totp/enable",
  operationId: "enableTotp",
  tags,
  summary: "Confirm the first code from the app: turns the second factor on",
  description: PASSWORD_NOTE,
  security: SESSION,
  request: { body: jsonBody(enableTotpSchema, { code: "123456", password: "your-password" }) },
  responses: {
    200: json(recoveryCodesSchema, "Ten single-use recovery codes, shown this once; this session has passed."),
    ...errors(429),
  },
});

const disable = createRoute({
  method: "post",
  path: "/totp/disable",
  operationId: "disableTotp",
  tags,
  summary: "Turn the second factor off; needs a fresh code and the password",
  description: PASSWORD_NOTE,
  security: SESSION,
  request: { body: changeBody },
  responses: { 204: empty("Turned off; recovery codes are deleted."), ...errors(422, 429) },
});

const passkeyOptions = createRoute({
  method: "post",
  path: "/passkey-options",
  operationId: "secondFactorPasskeyOptions",
  tags,
  summary: "Options for passing the second factor with one of the caller's passkeys",
  description: "Then POST /api/auth/mfa/verify (or any call that takes a code) with `passkey`: the browser's answer.",
  security: SESSION,
  responses: {
    200: json(webauthnOptionsSchema, "PublicKeyCredentialRequestOptionsJSON allowing the caller's passkeys."),
  },
});

const verify = createRoute({
  method: "post",
  path: "/verify",
  operationId: "verifySecondFactor",
  tags,
  summary: "Pass the second factor in this session (a passkey, a code from the app, or a recovery code, used up)",
  description: "Wrong codes are counted per (account, IP); another IP's failures never block a right code.",
  security: SESSION,
  request: { body: codeBody },
  responses: {
    200: json(secondFactorStatusSchema, "The second factor's status, valid for 12 hours."),
    ...errors(422, 429),
  },
});

const replaceCodes = createRoute({
  method: "post",
  path: "/recovery-codes",
  operationId: "replaceRecoveryCodes",
  tags,
  summary: "Replace the recovery codes (the old ones stop working); needs a fresh code and the password",
  description: PASSWORD_NOTE,
  security: SESSION,
  request: { body: changeBody },
  responses: { 200: json(recoveryCodesSchema, "Ten new recovery codes, shown this once."), ...errors(422, 429) },
});

/** /api/auth/mfa: the caller's own second factor. */
export const mfaRoutes = new ApiRoutes()
  .handle(status, async (c) => c.json(await secondFactorStatus(securityContext(c)), 200))
  .handle(setup, async (c) => {
    const ctx = securityContext(c);
    // No body at all reads as {}: refused as a missing password (400), like a body without one, not as 415.
    return c.json(await startTotpSetup(ctx, await optionalJson(c, confirmPasswordSchema)), 200);
  })
  .handle(enable, async (c) => {
    const ctx = securityContext(c);
    return c.json(await enableTotp(ctx, await body(c, enable)), 200);
  })
  .handleRaw(disable, async (c) => {
    const ctx = securityContext(c);
    await disableTotp(ctx, await body(c, disable));
    return c.body(null, 204);
  })
  // Options for passing the second factor with one of the caller's passkeys (then POST /verify with `passkey`).
  .handle(passkeyOptions, async (c) => {
    const { deps, actor } = securityContext(c);
    return c.json(await assertionOptions(deps.db, deps.env, actor.id), 200);
  })
  .handle(verify, async (c) => {
    const ctx = securityContext(c);
    return c.json(await verifySecondFactor(ctx, await body(c, verify)), 200);
  })
  .handle(replaceCodes, async (c) => {
    const ctx = securityContext(c);
    return c.json(await regenerateRecoveryCodes(ctx, await body(c, replaceCodes)), 200);
  });
