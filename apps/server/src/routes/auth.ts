import { createRoute } from "@hono/zod-openapi";
import {
  changePasswordSchema,
  createdIdSchema,
  demoAccountsSchema,
  sessionAnswerSchema,
  signedInSchema,
  signInSchema,
  signUpSchema,
} from "@tranche/domain";
import { deviceHash, rememberDevice } from "../auth/known-devices";
import { clientIp, requireUser } from "../auth/middleware";
import { changePassword, limitByIp, signIn, signUp } from "../auth/service";
import { clearSessionCookie, deleteSession, setSessionCookie } from "../auth/sessions";
import { AppError } from "../errors";
import { ApiRoutes, body, empty, errors, json, PUBLIC, SESSION } from "../openapi/routes";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, demoMode } from "../seed";
import { toUserDto } from "../services/users/dto";

const tags = ["Auth"];

const signUpRoute = createRoute({
  method: "post",
  path: "/sign-up",
  operationId: "signUp",
  tags,
  summary: "Create a project owner account (when ALLOW_SIGNUP is on); the address is confirmed by email",
  description:
    "A taken address gets the same answer (its owner is told by email instead): sign-up names no accounts. " +
    "Closed sign-up answers 403.",
  security: PUBLIC,
  request: {
    body: {
      content: {
        "application/json": {
          schema: signUpSchema,
          example: { name: "Alex Rivera", email: "alex@example.com", password: "a-long-passphrase-9" },
        },
      },
      required: true,
    },
  },
  responses: { 201: json(createdIdSchema, "Received."), ...errors(422, 429) },
});

const signInRoute = createRoute({
  method: "post",
  path: "/sign-in",
  operationId: "signIn",
  tags,
  summary: "Sign in with email and password",
  security: PUBLIC,
  request: {
    body: {
      content: {
        "application/json": {
          schema: signInSchema,
          example: { email: "investor@tranche.app", password: "your-password" },
        },
      },
      required: true,
    },
  },
  responses: {
    200: json(signedInSchema, "The user; the session cookie is set."),
    ...errors(429),
  },
});

const signOutRoute = createRoute({
  method: "post",
  path: "/sign-out",
  operationId: "signOut",
  tags,
  summary: "End the current session",
  security: PUBLIC,
  responses: { 204: empty("Signed out; the cookie is cleared.") },
});

const sessionRoute = createRoute({
  method: "get",
  path: "/session",
  operationId: "getSession",
  tags,
  summary: "The signed-in user, or null",
  security: PUBLIC,
  responses: { 200: json(sessionAnswerSchema, "The session's user.") },
});

const demoAccountsRoute = createRoute({
  method: "get",
  path: "/demo-accounts",
  operationId: "listDemoAccounts",
  tags,
  summary: "The demo accounts, when demo mode is on",
  security: PUBLIC,
  responses: {
    200: json(demoAccountsSchema, "Demo accounts (none outside demo mode)."),
  },
});

const changePasswordRoute = createRoute({
  method: "post",
  path: "/change-password",
  operationId: "changePassword",
  tags,
  summary: "Change the signed-in user's password",
  security: SESSION,
  request: {
    body: {
      content: {
        "application/json": {
          schema: changePasswordSchema,
          example: { currentPassword: "old-passphrase-1", newPassword: "a-new-long-passphrase-2" },
        },
      },
      required: true,
    },
  },
  responses: { 204: empty("Changed; other sessions are ended."), ...errors(422, 429) },
});

export const authRoutes = new ApiRoutes()
  .handle(signUpRoute, async (c) => {
    const { db, env } = c.get("deps");
    if (!env.ALLOW_SIGNUP)
      throw new AppError("forbidden", "Sign-up is closed. Ask an administrator for an invitation.");
    await limitByIp(db, env, "signup", clientIp(c));
    const input = await body(c, signUpRoute);
    const user = await signUp(db, env, input);
    return c.json({ id: user.id }, 201);
  })
  .handle(signInRoute, async (c) => {
    const { db, env } = c.get("deps");
    await limitByIp(db, env, "signin", clientIp(c));
    const input = await body(c, signInRoute);
    const current = c.get("user");
    if (current) await deleteSession(db, current.sessionId);
    const { token, user } = await signIn(db, env, input, {
      ip: clientIp(c),
      userAgent: c.req.header("user-agent"),
      device: deviceHash(c),
    });
    setSessionCookie(c, token, env);
    await rememberDevice(c, user.id);
    return c.json({ user: toUserDto(user) }, 200);
  })
  .handleRaw(signOutRoute, async (c) => {
    const { db, env } = c.get("deps");
    const user = c.get("user");
    if (user) await deleteSession(db, user.sessionId);
    clearSessionCookie(c, env);
    return c.body(null, 204);
  })
  .handle(sessionRoute, (c) => {
    const user = c.get("user");
    return c.json({ user: user ? toUserDto(user) : null }, 200);
  })
  .handle(demoAccountsRoute, (c) => {
    const enabled = demoMode(c.get("deps"));
    return c.json(
      {
        enabled,
        password: enabled ? DEMO_PASSWORD : null,
        accounts: enabled ? DEMO_ACCOUNTS.map(({ email, name, role }) => ({ email, name, role })) : [],
      },
      200,
    );
  })
  .handleRaw(changePasswordRoute, async (c) => {
    const user = requireUser(c);
    const input = await body(c, changePasswordRoute);
    const { db, env } = c.get("deps");
    await changePassword(db, env, user, input, { ip: clientIp(c) });
    return c.body(null, 204);
  });
