import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import { passkeySignInSchema, registerPasskeySchema } from "@tranche/domain";
import { type Context, Hono } from "hono";
import { rememberDevice } from "../auth/known-devices";
import { clientIp, requireUser } from "../auth/middleware";
import { limitByIp } from "../auth/service";
import { createSession, deleteSession, setSessionCookie } from "../auth/sessions";
import type { AppEnv } from "../context";
import { parseJson, pathId } from "../lib/validate";
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

/** /api/auth/passkeys: the caller's passkeys, and signing in with one. */
export const passkeyRoutes = new Hono<AppEnv>()
  .get("/", async (c) => c.json({ items: await listPasskeys(securityContext(c)) }))
  .post("/registration-options", async (c) => c.json(await registrationOptions(securityContext(c))))
  .post("/", async (c) => {
    const ctx = securityContext(c);
    const { name, response } = await parseJson(c, registerPasskeySchema);
    return c.json(await registerPasskey(ctx, { name, response: response as RegistrationResponseJSON }), 201);
  })
  .delete("/:id", async (c) => {
    const ctx = securityContext(c);
    await revokePasskey(ctx, pathId(c, "id", "Passkey"));
    return c.body(null, 204);
  })
  // Signing in: options name no account (the browser offers its passkeys for this site). Each hands out a stored
  // challenge, so they are limited per IP like password sign-ins.
  .post("/sign-in-options", async (c) => {
    const { db, env } = c.get("deps");
    await limitByIp(db, env, "signin", clientIp(c));
    return c.json(await assertionOptions(db, env, null));
  })
  .post("/sign-in", async (c) => {
    const { db, env } = c.get("deps");
    const { response } = await parseJson(c, passkeySignInSchema);
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
    return c.json({ user: toUserDto(user) });
  });
