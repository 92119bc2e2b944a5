import { isIP } from "node:net";
import type { ApiScope, Role } from "@tranche/domain";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv, CallerContext, ServiceContext, SessionUser } from "../context";
import { AppError } from "../errors";
import { bearerToken, refuseApiToken, requireCaller, resolveApiToken } from "./api-tokens";
import { resolveSession, sessionToken } from "./sessions";

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

const lastHop = (value: string | undefined) => value?.split(",").pop()?.trim() || undefined;

/**
 * The origin the request was sent to: its URL's (the Host header), or with TRUST_PROXY what our proxy says in
 * X-Forwarded-Proto and X-Forwarded-Host (the last hop, the one it appended).
 */
function requestOrigin(c: Context<AppEnv>): string {
  const url = new URL(c.req.url);
  if (c.get("deps").env.TRUST_PROXY) {
    const proto = lastHop(c.req.header("x-forwarded-proto"))?.toLowerCase();
    const host = lastHop(c.req.header("x-forwarded-host"));
    if (proto === "http" || proto === "https") url.protocol = `${proto}:`;
    if (host) url.host = host;
  }
  return url.origin;
}

/**
 * Only Tranche's own pages act for a signed-in person: a state-changing request that carries the session cookie,
 * with a body or without, is refused (403 `cross_origin_request`) when the browser says it came from another site
 * or origin (Sec-Fetch-Site other than same-origin/none, or an Origin that is not the one it was sent to nor
 * PUBLIC_URL's). SameSite=Lax alone let a sibling subdomain or another port of the same host post. Clients that send
 * neither header (scripts, API tokens) are not browsers acting for someone, and pass. Hono's csrf middleware looks
 * only at form content types and accepts either header alone, so it would let a body-less POST through.
 */
export const refuseCrossOrigin: MiddlewareHandler<AppEnv> = async (c, next) => {
  const env = c.get("deps").env;
  if (!STATE_CHANGING.has(c.req.method) || sessionToken(c, env) === undefined) return next();
  const site = c.req.header("sec-fetch-site");
  const origin = c.req.header("origin");
  const sameSite = site === undefined || site === "same-origin" || site === "none";
  const sameOrigin = origin === undefined || origin === requestOrigin(c) || origin === new URL(env.PUBLIC_URL).origin;
  if (!sameSite || !sameOrigin) {
    throw new AppError("cross_origin_request", "This request did not come from Tranche's own pages.", {
      origin: origin ?? null,
      secFetchSite: site ?? null,
    });
  }
  return next();
};

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

/** The signed-in caller as a service context (401 when signed out, 403 for an API token). */
export function serviceContext(c: Context<AppEnv>): ServiceContext {
  const actor = requireUser(c);
  const { db, env } = c.get("deps");
  return { db, env, actor };
}

/** The caller as a service context: the route's scope for API tokens (null: none may call it), its roles for people. */
export function callerContext(c: Context<AppEnv>, scope: ApiScope | null, roles?: Role[]): CallerContext {
  const { db, env } = c.get("deps");
  return { db, env, caller: requireCaller(c, scope, roles) };
}
