import { forgotPasswordSchema, resetPasswordSchema } from "@tranche/domain";
import { Hono } from "hono";
import { deviceHash } from "../auth/known-devices";
import { clientIp } from "../auth/middleware";
import { clearSessionCookie } from "../auth/sessions";
import type { AppEnv } from "../context";
import { parseJson } from "../lib/validate";
import { requestPasswordReset } from "../services/password-reset/request";
import { resetPassword } from "../services/password-reset/reset";

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
  .post("/reset-password", async (c) => {
    const { db, env } = c.get("deps");
    const input = await parseJson(c, resetPasswordSchema);
    const { userId } = await resetPassword(db, env, input);
    // Every session of the account has ended, this browser's included if it was signed in as them.
    if (c.get("user")?.id === userId) clearSessionCookie(c, env);
    return c.body(null, 204);
  });
