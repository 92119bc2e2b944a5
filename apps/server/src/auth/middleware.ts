import { isIP } from "node:net";
import type { Role } from "@tranche/domain";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv, SessionUser } from "../context";
import { AppError } from "../errors";
import { bearerToken, refuseApiToken, resolveApiToken } from "./api-tokens";
import { resolveSession, sessionToken } from "./sessions";

/**
 * Loads who is calling, for every /api request: an API token when the request carries one (its cookie, if
 * any, is ignored), else the signed-in user (or null).
 */
export const loadSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  const { db, env } = c.get("deps");
  c.set("apiToken", null);
  const token = bearerToken(c);
  if (token !== undefined) {
    c.set("apiToken", await resolveApiToken(db, token, env));
    c.set("user", null);
  } else {
    c.set("user", await resolveSession(db, sessionToken(c, env), env));
  }
  await next();
};

/** The signed-in person (401 when signed out). An API token is refused (403): see requireCaller. */
export function requireUser(c: Context<AppEnv>): SessionUser {
  refuseApiToken(c);
  const user = c.get("user");
  if (!user) throw new AppError("unauthenticated", "Sign in to continue.");
  return user;
}

export function requireRole(c: Context<AppEnv>, ...roles: Role[]): SessionUser {
  const user = requireUser(c);
  if (!roles.includes(user.role)) throw new AppError("forbidden", "Your role does not allow this.");
  return user;
}

/**
 * The caller's address: the socket's, or with TRUST_PROXY the last X-Forwarded-For hop — the one our proxy
 * appended. Earlier hops are whatever the client sent, so trusting them let anyone pick their rate-limit key.
 */
export function clientIp(c: Context<AppEnv>): string {
  if (c.get("deps").env.TRUST_PROXY) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",").pop()?.trim() ?? "";
    if (isIP(forwarded)) return forwarded;
  }
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? "unknown";
}
