import { forgotPasswordSchema, resetPasswordSchema, verifyEmailSchema } from "@tranche/domain";
import { Hono } from "hono";
import { deviceHash } from "../auth/known-devices";
import { clientIp } from "../auth/middleware";
import { limitByIp } from "../auth/service";
import { clearSessionCookie } from "../auth/sessions";
import type { AppEnv } from "../context";
import { parseJson } from "../lib/validate";
import { verifyEmail } from "../services/email-verification/verify";
import { requestPasswordReset } from "../services/password-reset/request";
import { lookUpPasswordReset, resetPassword } from "../services/password-reset/reset";

/** The same words whether or not an account has the address. */
export const FORGOT_PASSWORD_ANSWER =
  "If an account uses this email, a link to reset its password is on its way. It works for 30 minutes.";

export const passwordResetRoutes = new Hono<AppEnv>()
  .get("/options", (c) => c.json({ signUpAllowed: c.get("deps").env.ALLOW_SIGNUP }))
  .post("/forgot-password", async (c) => {
    const { db, env } = c.get("deps");
    const { email } = await parseJson(c, forgotPasswordSchema);
    await requestPasswordReset(db, env, email, { ip: clientIp(c), device: deviceHash(c) });
    return c.json({ message: FORGOT_PASSWORD_ANSWER }, 202);
  })
  // The link emailed at sign-up; its token travels in the body, never in a logged URL.
  .post("/verify-email", async (c) => {
    const { db, env } = c.get("deps");
    await limitByIp(db, env, "signin", clientIp(c));
    const { token } = await parseJson(c, verifyEmailSchema);
    return c.json(await verifyEmail(db, token));
  })
  // Whether a reset link still works, asked when its page opens; the token travels in the body, never in a URL.
  .post("/reset-password/lookup", async (c) => {
    const { db, env } = c.get("deps");
    await limitByIp(db, env, "signin", clientIp(c));
    const { token } = await parseJson(c, resetPasswordSchema.pick({ token: true }));
    return c.json(await lookUpPasswordReset(db, token));
  })
  .post("/reset-password", async (c) => {
    const { db, env } = c.get("deps");
    const input = await parseJson(c, resetPasswordSchema);
    const { userId } = await resetPassword(db, env, input);
    // Every session of the account has ended, this browser's included if it was signed in as them.
    if (c.get("user")?.id === userId) clearSessionCookie(c, env);
    return c.body(null, 204);
  });
