import { changePasswordSchema, signInSchema, signUpSchema } from "@tranche/domain";
import { Hono } from "hono";
import { deviceHash, rememberDevice } from "../auth/known-devices";
import { clientIp, requireUser } from "../auth/middleware";
import { changePassword, limitByIp, signIn, signUp } from "../auth/service";
import { clearSessionCookie, deleteSession, setSessionCookie } from "../auth/sessions";
import type { AppEnv } from "../context";
import { AppError } from "../errors";
import { parseJson } from "../lib/validate";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, demoMode } from "../seed";
import { toUserDto } from "../services/users/dto";

export const authRoutes = new Hono<AppEnv>()
  .post("/sign-up", async (c) => {
    const { db, env } = c.get("deps");
    if (!env.ALLOW_SIGNUP)
      throw new AppError("forbidden", "Sign-up is closed. Ask an administrator for an invitation.");
    await limitByIp(db, env, "signup", clientIp(c));
    const input = await parseJson(c, signUpSchema);
    // A taken address gets the same answer (its owner is told by email instead): sign-up names no accounts.
    const user = await signUp(db, env, input);
    return c.json({ id: user.id }, 201);
  })
  .post("/sign-in", async (c) => {
    const { db, env } = c.get("deps");
    await limitByIp(db, env, "signin", clientIp(c));
    const input = await parseJson(c, signInSchema);
    const current = c.get("user");
    if (current) await deleteSession(db, current.sessionId);
    const { token, user } = await signIn(db, env, input, {
      ip: clientIp(c),
      userAgent: c.req.header("user-agent"),
      device: deviceHash(c),
    });
    setSessionCookie(c, token, env);
    await rememberDevice(c, user.id);
    return c.json({ user: toUserDto(user) });
  })
  .post("/sign-out", async (c) => {
    const { db, env } = c.get("deps");
    const user = c.get("user");
    if (user) await deleteSession(db, user.sessionId);
    clearSessionCookie(c, env);
    return c.body(null, 204);
  })
  .get("/session", (c) => {
    const user = c.get("user");
    return c.json({ user: user ? toUserDto(user) : null });
  })
  .get("/demo-accounts", (c) => {
    const enabled = demoMode(c.get("deps"));
    return c.json({
      enabled,
      password: enabled ? DEMO_PASSWORD : null,
      accounts: enabled ? DEMO_ACCOUNTS.map(({ email, name, role }) => ({ email, name, role })) : [],
    });
  })
  .post("/change-password", async (c) => {
    const user = requireUser(c);
    const input = await parseJson(c, changePasswordSchema);
    await changePassword(c.get("deps").db, user, input);
    return c.body(null, 204);
  });
