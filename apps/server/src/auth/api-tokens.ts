// Scoped API tokens for machine clients (custodians, integrations): `Authorization: Bearer <token>`.
// Only the SHA-256 of a token is stored; the token itself is shown once, when it is created.
import { createHash, randomBytes } from "node:crypto";
import type { ApiScope, Role } from "@tranche/domain";
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv, Caller, TokenCaller } from "../context";
import type { DbOrTx, Tx } from "../db/client";
import { apiTokens, users } from "../db/schema";
import type { Env } from "../env";
import { AppError } from "../errors";
import { enforce } from "./rate-limit";

const TOKEN_PREFIX = "trk_";
// last_used_at is written at most this often, so a busy token does not write on every read.
const TOUCH_EVERY_SECONDS = 30;

export const hashApiToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** A new token (256 random bits) and what is stored of it. */
export function mintApiToken(): { token: string; hash: string; prefix: string } {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  return { token, hash: hashApiToken(token), prefix: token.slice(0, TOKEN_PREFIX.length + 6) };
}

/**
 * The bearer token of the request, undefined when none was sent; a malformed Bearer header is a 401. Other
 * schemes are left alone (a proxy's Basic auth in front of a staging site must not sign every browser out).
 */
export function bearerToken(c: Context<AppEnv>): string | undefined {
  const header = c.req.header("authorization");
  if (header === undefined || !/^\s*bearer\b/i.test(header)) return undefined;
  const match = /^Bearer ([\x21-\x7e]{1,200})$/i.exec(header.trim());
  if (!match) throw unauthenticatedToken("Send the API token as Authorization: Bearer <token>.");
  return match[1];
}

const unauthenticatedToken = (message: string) =>
  new AppError("unauthenticated", message, undefined, { "WWW-Authenticate": 'Bearer realm="tranche"' });

/**
 * The token behind a bearer header, counted against its own rate limit: unknown or revoked → 401,
 * its creator no longer an admin (demoted, or the account deleted) → 401 `token_owner_inactive`,
 * over the limit → 429.
 */
export async function resolveApiToken(db: DbOrTx, token: string, env: Env): Promise<TokenCaller> {
  const [row] = await db
    .select({ id: apiTokens.id, name: apiTokens.name, scopes: apiTokens.scopes, ownerRole: users.role })
    .from(apiTokens)
    .leftJoin(users, eq(users.id, apiTokens.createdBy))
    .where(and(eq(apiTokens.tokenHash, hashApiToken(token)), isNull(apiTokens.revokedAt)));
  requireLiveToken(row);
  await enforce(db, [{ key: `api-token:${row.id}`, max: env.API_TOKEN_LIMIT_PER_MINUTE, windowSeconds: 60 }]);
  await db
    .update(apiTokens)
    .set({ lastUsedAt: sql`now()` })
    .where(
      and(
        eq(apiTokens.id, row.id),
        or(
          isNull(apiTokens.lastUsedAt),
          lt(apiTokens.lastUsedAt, sql`now() - make_interval(secs => ${TOUCH_EVERY_SECONDS})`),
        ),
      ),
    );
  return { id: row.id, name: row.name, scopes: row.scopes as ApiScope[] };
}

const REVOKED = "The API token is not valid or has been revoked.";

/** Unknown or revoked → 401; its creator no longer an admin → 401 `token_owner_inactive`. */
function requireLiveToken<T extends { ownerRole: string | null }>(row: T | undefined): asserts row is T {
  if (!row) throw unauthenticatedToken(REVOKED);
  // A token acts with its creator's authority: it stops the moment they could no longer create it.
  if (row.ownerRole !== "admin") {
    throw new AppError(
      "token_owner_inactive",
      "The person who created this API token is no longer an admin: ask an admin for a new token.",
      undefined,
      { "WWW-Authenticate": 'Bearer realm="tranche", error="invalid_token"' },
    );
  }
}

/**
 * Inside a transaction that writes for a token (a settlement, a failure): the token is looked at again and held
 * (KEY SHARE, which its revocation's FOR UPDATE waits for) until commit. A revocation that committed while the
 * request waited for its row is refused with 401 and nothing is written; one that comes after waits for this
 * write, so an admin who has revoked a token never sees it change anything afterwards.
 */
export async function holdApiToken(tx: Tx, token: TokenCaller): Promise<void> {
  const [row] = await tx
    .select({ id: apiTokens.id, ownerRole: users.role })
    .from(apiTokens)
    .leftJoin(users, eq(users.id, apiTokens.createdBy))
    .where(and(eq(apiTokens.id, token.id), isNull(apiTokens.revokedAt)))
    .for("key share", { of: apiTokens });
  requireLiveToken(row);
}

/** A route that takes no API token refuses one with 403 (the token is valid, just not for this). */
export function refuseApiToken(c: Context<AppEnv>): void {
  if (c.get("apiToken")) throw new AppError("forbidden", "API tokens cannot use this endpoint.");
}

/**
 * Who is calling a route that people and API tokens share; the route names the scope a token needs (null: no
 * token may call it) and, optionally, the roles a person needs. Signed out → 401; a token without the
 * scope → 403 naming it.
 */
export function requireCaller(c: Context<AppEnv>, scope: ApiScope | null, roles?: Role[]): Caller {
  const token = c.get("apiToken");
  if (token) {
    if (scope === null) refuseApiToken(c);
    if (scope && !token.scopes.includes(scope)) {
      throw new AppError("forbidden", `This API token lacks the ${scope} scope.`, { missingScope: scope });
    }
    return { kind: "token", token };
  }
  const user = c.get("user");
  if (!user) throw new AppError("unauthenticated", "Sign in to continue.");
  if (roles && !roles.includes(user.role)) throw new AppError("forbidden", "Your role does not allow this.");
  return { kind: "user", user };
}

/** The id an audit event names as its actor: the person, or the API token. */
export const callerId = (caller: Caller) => (caller.kind === "user" ? caller.user.id : caller.token.id);
