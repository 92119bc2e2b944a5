import { capturesSchema } from "@tranche/domain";
import { z } from "zod";
import { ERROR_STATUS, type ErrorCode } from "../errors";
import { type Operation, operations } from "./operations";

/** One JSON Schema (draft 2020-12, what OpenAPI 3.1 uses) from the zod schema the server validates with. */
function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  return rest;
}

/** Per error status: what it means, and the code its example shows. */
const ERRORS: Record<number, [description: string, code: ErrorCode]> = {
  400: ["The input is not valid: `details` maps each field to its message.", "invalid_input"],
  401: [
    "Not signed in, or the bearer token is unknown or revoked, or its creator is no longer an admin (`token_owner_inactive`).",
    "unauthenticated",
  ],
  403: [
    "Signed in, but this role, project membership or token scope does not allow it; or a state-changing request with a session cookie came from another origin (`cross_origin_request`).",
    "forbidden",
  ],
  404: ["No such object, or the caller may not know it exists.", "not_found"],
  409: [
    "The object's current state does not allow this (for example, already decided); `stale_round`: the action named a verification round or policy version the milestone has since left.",
    "conflict",
  ],
  410: ["The link was used, withdrawn or has expired: ask for a new one.", "gone"],
  413: ["The body is larger than the limit.", "payload_too_large"],
  415: ["The body is not of the content type the route reads.", "unsupported_media_type"],
  422: [
    "A business rule refuses it; the message says which. `hash_mismatch`: an uploaded file is not the one its capture entry states.",
    "business_rule",
  ],
  429: ["Too many requests: wait for `Retry-After` seconds.", "rate_limited"],
  503: [
    "The database is briefly unavailable: retry after `Retry-After` seconds. Nothing was written.",
    "database_unavailable",
  ],
};

function parameters(op: Operation) {
  const path = [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: "path",
    required: true,
    schema: { type: "string", format: "uuid" },
  }));
  if (!op.query) return path;
  const query = jsonSchema(op.query) as { properties?: Record<string, unknown>; required?: string[] };
  return [
    ...path,
    ...Object.entries(query.properties ?? {}).map(([name, schema]) => ({
      name,
      in: "query",
      required: query.required?.includes(name) ?? false,
      schema,
    })),
  ];
}

function responses(op: Operation) {
  const success = op.status ?? (op.method === "post" && op.created ? 201 : 200);
  const out: Record<string, unknown> = {
    [success]:
      success === 204
        ? { description: op.response }
        : {
            description: op.response,
            content: {
              [op.produces ?? "application/json"]: op.example === undefined ? {} : { example: op.example },
            },
          },
  };
  const errors = new Set<number>([...(op.errors ?? []), 503]);
  if (op.auth !== "public") errors.add(401);
  if (op.body || op.query) errors.add(400);
  if (op.path.includes("{")) errors.add(404);
  for (const status of [...errors].sort()) {
    out[status] = { $ref: `#/components/responses/Error${status}` };
  }
  return out;
}

function security(op: Operation) {
  if (op.auth === "public") return [];
  const cookie = { sessionCookie: [] };
  if (!op.scopes) return [cookie];
  return [cookie, { bearerToken: op.scopes }];
}

/** The OpenAPI 3.1 document: every /api operation, its schemas from zod, the error contract, both auth schemes. */
export function openApiDocument(options: { serverUrl: string; version: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations()) {
    const body = op.body
      ? {
          required: !op.bodyOptional,
          content: {
            "application/json": {
              schema: jsonSchema(op.body),
              ...(op.bodyExample === undefined ? {} : { example: op.bodyExample }),
            },
          },
        }
      : op.multipart
        ? {
            required: true,
            content: {
              "multipart/form-data": {
                schema: {
                  type: "object",
                  properties: {
                    files: { type: "array", items: { type: "string", contentMediaType: "application/octet-stream" } },
                    captures: {
                      type: "string",
                      contentMediaType: "application/json",
                      description:
                        "Optional JSON array, one entry per file in order (null for a file without tags): " +
                        "`{ sha256, latitude, longitude, accuracy, capturedAt }`.",
                      contentSchema: jsonSchema(capturesSchema),
                    },
                    round: {
                      type: "string",
                      description:
                        "Optional: the verification round the uploader saw (409 `stale_round` if it moved on).",
                    },
                  },
                  required: ["files"],
                },
              },
            },
          }
        : undefined;
    paths[op.path] ??= {};
    paths[op.path][op.method] = {
      operationId: op.id,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: [op.tag],
      security: security(op),
      parameters: parameters(op),
      ...(body ? { requestBody: body } : {}),
      responses: responses(op),
    };
  }

  const errorBody = {
    type: "object",
    required: ["error"],
    properties: {
      error: {
        type: "object",
        required: ["code", "message"],
        properties: {
          code: { type: "string", enum: Object.keys(ERROR_STATUS) },
          message: { type: "string", description: "A sentence for people; show it as it is." },
          details: { description: "For invalid_input: field → message." },
        },
      },
    },
  };
  const errorResponses = Object.fromEntries(
    Object.entries(ERRORS).map(([status, [description, code]]) => [
      `Error${status}`,
      {
        description,
        content: {
          "application/json": {
            schema: { $ref: "#/components/schemas/Error" },
            example: {
              error: {
                code,
                message: status === "400" ? "name: Name must be at least 3 characters." : description,
                ...(status === "400" ? { details: { name: "Name must be at least 3 characters." } } : {}),
              },
            },
          },
        },
      },
    ]),
  );

  return {
    openapi: "3.1.0",
    info: {
      title: "Tranche API",
      version: options.version,
      description:
        "Milestone-based capital release with independent verification. People sign in and use the session " +
        "cookie; machines (custodians, integrations) send `Authorization: Bearer <token>` with a token an admin " +
        "created, limited to its scopes. Every error answers `{ error: { code, message, details? } }`.",
    },
    servers: [{ url: options.serverUrl }],
    tags: [...new Set(operations().map((op) => op.tag))].map((name) => ({ name })),
    paths,
    components: {
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
      schemas: { Error: errorBody },
      responses: errorResponses,
    },
  };
}
