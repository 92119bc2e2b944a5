import { enableTotpSchema, secondFactorSchema } from "@tranche/domain";
import { type Context, Hono } from "hono";
import { clientIp, requireUser } from "../auth/middleware";
import type { AppEnv } from "../context";
import { parseJson } from "../lib/validate";
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

/** /api/auth/mfa: the caller's own second factor. */
export const mfaRoutes = new Hono<AppEnv>()
  .get("/", async (c) => c.json(await secondFactorStatus(securityContext(c))))
  .post("/totp/setup", async (c) => c.json(await startTotpSetup(securityContext(c))))
  .post("/totp/enable", async (c) => {
    const ctx = securityContext(c);
    const { code } = await parseJson(c, enableTotpSchema);
    return c.json(await enableTotp(ctx, code));
  })
  .post("/totp/disable", async (c) => {
    const ctx = securityContext(c);
    await disableTotp(ctx, await parseJson(c, secondFactorSchema));
    return c.body(null, 204);
  })
  // Options for passing the second factor with one of the caller's passkeys (then POST /verify with `passkey`).
  .post("/passkey-options", async (c) => {
    const { deps, actor } = securityContext(c);
    return c.json(await assertionOptions(deps.db, deps.env, actor.id));
  })
  .post("/verify", async (c) => {
    const ctx = securityContext(c);
    return c.json(await verifySecondFactor(ctx, await parseJson(c, secondFactorSchema)));
  })
  .post("/recovery-codes", async (c) => {
    const ctx = securityContext(c);
    return c.json(await regenerateRecoveryCodes(ctx, await parseJson(c, secondFactorSchema)));
  });
