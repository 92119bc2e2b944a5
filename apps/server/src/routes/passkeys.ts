import { createRoute } from "@hono/zod-openapi";
import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import {
  confirmPasswordSchema,
  itemsOf,
  passkeySchema,
  passkeySignInSchema,
  registerPasskeySchema,
  signedInSchema,
  webauthnOptionsSchema,
} from "@tranche/domain";
import type { Context } from "hono";
import { rememberDevice } from "../auth/known-devices";
import { clientIp, requireUser } from "../auth/middleware";
import { limitByIp } from "../auth/service";
import { createSession, deleteSession, setSessionCookie } from "../auth/sessions";
import type { AppEnv } from "../context";
import {
  ApiRoutes,
  body,
  empty,
  errors,
  idParams,
  json,
  jsonBody,
  optionalJson,
  PUBLIC,
  param,
  SESSION,
} from "../openapi/routes";
import type { SecurityContext } from "../services/mfa/second-factor";
import { assertionOptions } from "../services/passkeys/assertion";
import {
  listPasskeys,
  registerPasskey,
  registrationOptions,
  revokePasskey,
  signInWithPasskey,
} from "../services/passkeys/manage";
import { toUserDto } from "../services/users/dto";

const securityContext = (c: Context<AppEnv>): SecurityContext => ({
  actor: requireUser(c),
  deps: c.get("deps"),
  ip: clientIp(c),
});

const B64 = "AAECAwQFBgcICQoLDA0ODw";
const ENROLLED_NOTE =
  "Once a second factor is set up, the session must have passed it within 12 hours, else 403 `mfa_required`.";
const PASSWORD_NOTE =
  "The account's `password` is typed again, even in a session that passed the second factor (400 without it or " +
  "when it is wrong, and nothing changes; wrong ones count as failed sign-ins, 429 past the limit).";
const passwordBody = jsonBody(confirmPasswordSchema, { password: "your-password" });

const list = createRoute({
  method: "get",
  path: "/",
  operationId: "listPasskeys",
  tags: ["Security"],
  summary: "The caller's passkeys (revoked ones are not listed)",
  security: SESSION,
  responses: { 200: json(itemsOf(passkeySchema), "The passkeys, newest first: device name, created, last used.") },
});

const registrationOptionsRoute = createRoute({
  method: "post",
  path: "/registration-options",
  operationId: "passkeyRegistrationOptions",
  tags: ["Security"],
  summary: "Options for navigator.credentials.create(): a discoverable passkey with user verification",
  description: `The challenge is good once, for five minutes, and carries the password's proof to the registration. ${ENROLLED_NOTE} ${PASSWORD_NOTE}`,
  security: SESSION,
  request: { body: passwordBody },
  responses: { 200: json(webauthnOptionsSchema, "PublicKeyCredentialCreationOptionsJSON."), ...errors(429) },
});

const register = createRoute({
  method: "post",
  path: "/",
  operationId: "registerPasskey",
  tags: ["Security"],
  summary: "Register a passkey: the browser's answer to the registration options, and a name for the device",
  description: `User verification is required; the challenge must come from registration options, which asked for the password. This session passes the second factor. ${ENROLLED_NOTE}`,
  security: SESSION,
  request: {
    body: jsonBody(registerPasskeySchema, {
      name: "Work phone",
      response: {
        id: B64,
        rawId: B64,
        type: "public-key",
        clientExtensionResults: {},
        response: { clientDataJSON: B64, attestationObject: B64, transports: ["internal"] },
      },
    }),
  },
  responses: { 201: json(passkeySchema, "The passkey."), ...errors(422) },
});

const revoke = createRoute({
  method: "delete",
  path: "/{id}",
  operationId: "revokePasskey",
  tags: ["Security"],
  summary: "Revoke one of the caller's passkeys: it is refused from then on",
  description: `Needs a session that passed the second factor within 12 hours (else 403 \`mfa_required\`). ${PASSWORD_NOTE} Other sessions must pass the second factor again.`,
  security: SESSION,
  request: { params: idParams, body: passwordBody },
  responses: { 204: empty("Revoked."), ...errors(429) },
});

const signInOptions = createRoute({
  method: "post",
  path: "/sign-in-options",
  operationId: "passkeySignInOptions",
  tags: ["Auth"],
  summary: "Options for navigator.credentials.get() to sign in with a passkey (names no account)",
  description: "Limited per IP like password sign-ins. The challenge is good once, for five minutes.",
  security: PUBLIC,
  responses: { 200: json(webauthnOptionsSchema, "PublicKeyCredentialRequestOptionsJSON.") },
});

const signIn = createRoute({
  method: "post",
  path: "/sign-in",
  operationId: "signInWithPasskey",
  tags: ["Auth"],
  summary: "Sign in with a passkey (user verification required); the session has passed the second factor",
  security: PUBLIC,
  request: {
    body: jsonBody(passkeySignInSchema, {
      response: {
        id: B64,
        rawId: B64,
        type: "public-key",
        clientExtensionResults: {},
        response: { clientDataJSON: B64, authenticatorData: B64, signature: B64, userHandle: B64 },
      },
    }),
  },
  responses: { 200: json(signedInSchema, "The user; the session cookie is set."), ...errors(422) },
});

/** /api/auth/passkeys: the caller's passkeys, and signing in with one. */
export const passkeyRoutes = new ApiRoutes()
  .handle(list, async (c) => c.json({ items: await listPasskeys(securityContext(c)) }, 200))
  .handle(registrationOptionsRoute, async (c) => {
    const ctx = securityContext(c);
    // No body at all reads as {}: refused as a missing password (400), like a body without one, not as 415.
    return c.json(await registrationOptions(ctx, await optionalJson(c, confirmPasswordSchema)), 200);
  })
  .handle(register, async (c) => {
    const ctx = securityContext(c);
    const { name, response } = await body(c, register);
    return c.json(await registerPasskey(ctx, { name, response: response as RegistrationResponseJSON }), 201);
  })
  .handleRaw(revoke, async (c) => {
    const ctx = securityContext(c);
    await revokePasskey(ctx, param(c, "id", "Passkey"), await optionalJson(c, confirmPasswordSchema));
    return c.body(null, 204);
  })
  // Signing in: options name no account (the browser offers its passkeys for this site). Each hands out a stored
  // challenge, so they are limited per IP like password sign-ins.
  .handle(signInOptions, async (c) => {
    const { db, env } = c.get("deps");
    await limitByIp(db, env, "signin", clientIp(c));
    return c.json(await assertionOptions(db, env, null), 200);
  })
  .handle(signIn, async (c) => {
    const { db, env } = c.get("deps");
    const { response } = await body(c, signIn);
    const { user } = await signInWithPasskey(db, env, response);
    const current = c.get("user");
    if (current) await deleteSession(db, current.sessionId);
    const { token } = await createSession(db, user.id, {
      ip: clientIp(c),
      userAgent: c.req.header("user-agent"),
      secondFactorPassed: true,
    });
    setSessionCookie(c, token, env);
    await rememberDevice(c, user.id);
    return c.json({ user: toUserDto(user) }, 200);
  });
