// The OpenAPI 3.1 document, generated from the declared routes (see ./routes.ts): nothing here lists a route.
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../context";

export const API_VERSION = "1.0.0";

const ERROR_CODES =
  "invalid_input (400), unauthenticated and token_owner_inactive (401), forbidden, cross_origin_request and " +
  "mfa_required (403), not_found (404), conflict (409), gone (410), payload_too_large (413), " +
  "unsupported_media_type (415), business_rule and weak_password (422), rate_limited (429), internal (500), " +
  "unavailable and database_unavailable (503)";

export type OpenApiDocument = ReturnType<OpenAPIHono<AppEnv>["getOpenAPI31Document"]>;

/** The document of every route mounted on `app`, naming `serverUrl` as its server. */
export function openApiDocument(app: OpenAPIHono<AppEnv>, serverUrl: string): OpenApiDocument {
  const document = app.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "Tranche API",
      version: API_VERSION,
      description:
        "Milestone-based capital release with independent verification. People sign in and use the session " +
        "cookie; machines (custodians, integrations) send `Authorization: Bearer <token>` with a token an admin " +
        "created, limited to its scopes. Money is a JSON number in the currency's major unit (at most two " +
        "decimals). Every error answers `{ error: { code, message, details? } }`; the codes are " +
        `${ERROR_CODES}.`,
    },
    servers: [{ url: serverUrl }],
  });
  const tags = new Set<string>();
  for (const methods of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(methods)) {
      for (const tag of (operation as { tags?: string[] }).tags ?? []) tags.add(tag);
    }
  }
  document.tags = [...tags].map((name) => ({ name }));
  document.components = {
    ...document.components,
    securitySchemes: {
      sessionCookie: {
        type: "apiKey",
        in: "cookie",
        name: "tranche_session",
        description: "Set by POST /api/auth/sign-in (named `__Host-tranche_session` when served over HTTPS).",
      },
      bearerToken: {
        type: "http",
        scheme: "bearer",
        description: "An API token created by an admin at Settings → Integrations; each route names its scope.",
      },
    },
  };
  return document;
}
